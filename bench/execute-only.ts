// `npm run bench` runs everything; this runs only the POST /execute comparison (quicker checks).
import { benchExecute } from './execute.ts';

const seconds = Number(process.env.BENCH_SECONDS ?? 5);
const rounds = Number(process.env.BENCH_ROUNDS ?? 3);
console.log(JSON.stringify(await benchExecute({ seconds, rounds, connections: 50 }), null, 2));
