// One of the cluster bench's subscriber threads (bench/cluster.ts): opens its share of the
// /ws/events subscribers and times each event's arrival against the send time the event carries.
// A single thread reading 1,000 sockets makes the last of them wait for the other 999: that
// queueing is the client's, not the server's, so the subscribers are spread over threads.
import { parentPort, workerData } from 'node:worker_threads';
import { LeanSocket } from './ws-client.ts';

interface Target {
  url: string;
  token: string;
  name: string;
}

const { targets } = workerData as { targets: Target[] };
const SENT = Buffer.from('"sent":');
const byInstance: Record<string, number[]> = {};
let received = 0;

// The publisher's wall-clock send time (ms, from performance.timeOrigin + now), read from the bytes.
function sentOf(payload: Buffer): number {
  const i = payload.indexOf(SENT);
  if (i < 0) return NaN;
  // Digits and the decimal point, compared as bytes: 20,000 frames a second come through here.
  let end = i + SENT.length;
  for (let c = payload[end]; c !== undefined && ((c >= 0x30 && c <= 0x39) || c === 0x2e);)
    c = payload[++end];
  return Number(payload.toString('latin1', i + SENT.length, end));
}

const sockets: LeanSocket[] = [];
for (let i = 0; i < targets.length; i += 50) {
  const batch = targets.slice(i, i + 50).map(async ({ url, token, name }) => {
    const ws = await LeanSocket.open(url, { authorization: `Bearer ${token}` });
    const into = (byInstance[name] ??= []);
    ws.wantPayload = true;
    ws.onFrame = (_now, payload) => {
      const sent = sentOf(payload!);
      if (!Number.isFinite(sent)) return;
      into.push(performance.timeOrigin + performance.now() - sent);
      received++;
    };
    return ws;
  });
  sockets.push(...(await Promise.all(batch)));
}
parentPort!.postMessage({ ready: true });
parentPort!.on('message', (message: 'count' | 'stop') => {
  if (message === 'count') return parentPort!.postMessage({ received });
  for (const ws of sockets) ws.socket.destroy();
  parentPort!.postMessage({ received, byInstance });
  parentPort!.close();
});
