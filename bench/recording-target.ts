// The run-history benchmark's target, pinned to its own core: two real Pipit services in one
// process, the same in every way except `runs.record` (on in one, off in the other). Prints one JSON
// line with their addresses and tokens, then waits. With RECORDING_TARGET_ONLY=true or false it
// starts that one service alone (the same line, the other side's fields empty): the fresh-process
// comparison, whose services share no code, heap or JIT state.
import { startBenchService } from './bench-service.ts';

const only = process.env.RECORDING_TARGET_ONLY;
const start = (record: boolean) =>
  only === undefined || only === String(record)
    ? startBenchService({}, undefined, `runs: {record: ${record}}\n`)
    : undefined;
const recording = await start(true);
const plain = await start(false);
process.stdout.write(
  `${JSON.stringify({
    recordingUrl: recording?.url ?? '',
    recordingToken: recording?.token ?? '',
    plainUrl: plain?.url ?? '',
    plainToken: plain?.token ?? '',
  })}\n`,
);

const stop = async () => {
  for (const service of [recording, plain]) await service?.close();
  process.exit(0);
};
process.on('SIGTERM', () => void stop());
process.stdin.on('end', () => void stop());
process.stdin.resume();
