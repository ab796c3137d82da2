// Preloaded (`node --expose-gc --import gc-preload.ts src/cli/main.ts start`) into a Pipit child by
// tools/fuzz/pipit-child.ts: on an IPC message {type: "gc", seq} it runs full GCs and answers
// {type: "memory", seq, heapUsed, rss}. Nothing else changes in the process.
const gc = (globalThis as { gc?: () => void }).gc;

if (process.send && gc) {
  process.on('message', (message: { type?: string; seq?: number }) => {
    if (message?.type !== 'gc') return;
    for (let i = 0; i < 3; i++) gc();
    const { heapUsed, rss } = process.memoryUsage();
    process.send!({ type: 'memory', seq: message.seq, heapUsed, rss });
  });
  // The channel must not keep the service alive once it has shut down.
  process.channel?.unref();
}
