// WebSocket benchmark target, run in a child process pinned to its own core: Pipit's HTTP backend
// (a real service, a registered user, a JWT) and, in the same process, a bare `ws` server doing the
// same work by hand: /requests answers a request with a response message (/requests-recorded, the
// floor, also records its run into Pipit's history), /events re-broadcasts a published event to
// every client (serialised once). Prints one JSON line, then waits.
import { WebSocketServer } from 'ws';
import type { WebSocket } from 'ws';
import { buildResponse } from '../src/core/messages.ts';
import { makeEvent } from '../src/events/event.ts';
import { requestRecorder, startBenchService } from './bench-service.ts';

const pipit = await startBenchService();
const pipitUrl = pipit.url.replace(/^http/, 'ws');
const { token } = pipit;
// The floor under the /ws/requests goal (/requests-recorded): the bare echo plus the run that issue
// 14 records for every request, through Pipit's own RunRecord into the same history.
const record = requestRecorder(pipit.service, 'ws');

const bare = new WebSocketServer({ port: 0, host: '127.0.0.1', perMessageDeflate: false });
const eventClients = new Set<WebSocket>();
bare.on('connection', (ws, req) => {
  if (req.url === '/events') {
    eventClients.add(ws);
    ws.on('close', () => eventClients.delete(ws));
    ws.on('message', (data) => {
      const frame = JSON.parse((data as Buffer).toString()) as { args: Record<string, unknown> };
      const json = JSON.stringify(
        makeEvent('pipit.message.event.custom.CustomEvent', frame.args, 'bench'),
      );
      for (const client of eventClients) client.send(json);
    });
    return;
  }
  const recorded = req.url === '/requests-recorded';
  ws.on('message', (data) => {
    const body = JSON.parse((data as Buffer).toString()) as {
      id?: string;
      action: string;
      args?: Record<string, unknown>;
    };
    if (recorded) record(body, body.args);
    ws.send(
      JSON.stringify(
        buildResponse({
          id: body.id,
          target: 'ws',
          origin: 'bench',
          output: body.args,
          errors: [],
        }),
      ),
    );
  });
});
await new Promise<void>((resolve) => bare.once('listening', resolve));
const { port } = bare.address() as { port: number };
const bareUrl = `ws://127.0.0.1:${port}`;

process.stdout.write(`${JSON.stringify({ pipitUrl, bareUrl, token })}\n`);

const stop = async () => {
  for (const client of bare.clients) client.terminate();
  bare.close();
  await pipit.close();
  process.exit(0);
};
process.on('SIGTERM', () => void stop());
process.stdin.on('end', () => void stop());
process.stdin.resume();
