// A process that answers every message on Redis channel `bench:ping` by publishing it back on
// `bench:pong`: the other end of the bare pub/sub round trip that `npm run bench:cluster` measures
// beside a routed request (the same two process hops through the same redis-server, nothing else).
// Usage: node bench/redis-echo.ts <redis url>; prints "ready" once subscribed.
import { Redis } from 'ioredis';

const url = process.argv[2]!;
const sub = new Redis(url);
const pub = new Redis(url);
sub.on('message', (_channel: string, message: string) => void pub.publish('bench:pong', message));
await sub.subscribe('bench:ping');
process.stdout.write('ready\n');
process.stdin.resume();
process.stdin.once('end', () => {
  sub.disconnect();
  pub.disconnect();
});
