// The run-history benchmark's target, pinned to its own core: two real Pipit services in one
// process, the same in every way except `runs.record` (on in one, off in the other). Prints one JSON
// line with their addresses and tokens, then waits.
import { startBenchService } from './bench-service.ts';

const recording = await startBenchService({}, undefined, 'runs: {record: true}\n');
const plain = await startBenchService({}, undefined, 'runs: {record: false}\n');
process.stdout.write(
  `${JSON.stringify({
    recordingUrl: recording.url,
    recordingToken: recording.token,
    plainUrl: plain.url,
    plainToken: plain.token,
  })}\n`,
);

const stop = async () => {
  await recording.close();
  await plain.close();
  process.exit(0);
};
process.on('SIGTERM', () => void stop());
process.stdin.on('end', () => void stop());
process.stdin.resume();
