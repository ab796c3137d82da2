// `npm run bench` runs everything; this runs only the POST /execute comparison (quicker checks).
// Options as for `npm run bench`: BENCH_SECONDS (per leg, default 5), BENCH_PAIRS (default 3).
import { benchOptions } from './options.ts';
import { benchExecute } from './execute.ts';

const { seconds, pairs } = benchOptions();
await benchExecute({ seconds, pairs, connections: 50 });
