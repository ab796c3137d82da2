// The fuzz harness: a Pipit child under test (restarted after a crash), drivers that send one input
// and judge its answer, and the campaign that runs a generator through a driver in concurrent
// streams, counts answers by status and replays each kind of failure alone to shrink it.
//
// The harness lives in harness/, one file per part; this file gathers them.
export * from './harness/limits.ts';
export * from './harness/server.ts';
export * from './harness/http.ts';
export * from './harness/ws-connection.ts';
export * from './harness/ws.ts';
export * from './harness/campaign.ts';
export * from './harness/shrink.ts';
