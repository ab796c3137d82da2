import { actionsFor, PipitError, z } from '../api/index.ts';
import type { ShellState } from './state.ts';

const action = actionsFor<ShellState>();

export const kill = action({
  name: 'kill',
  summary:
    'Stops a command started with stream or background: SIGTERM to its process group, then SIGKILL.',
  params: {
    id: z.string().min(1).describe('the id that shell.exec returned'),
  },
  run: ({ id }, { state }) => {
    const job = state.jobs.get(id);
    if (!job) {
      throw new PipitError(
        'ACTION_FAILED',
        `shell.kill: no running command with id ${JSON.stringify(id)} (it may have ended; shell.jobs lists the running ones)`,
      );
    }
    job.process.kill('killed');
    return { id, pid: job.process.pid };
  },
});

export const jobs = action({
  name: 'jobs',
  summary: 'Lists the commands started with stream or background that are still running.',
  params: {},
  run: (_args, { state }) =>
    [...state.jobs.values()].map((job) => ({
      id: job.id,
      pid: job.process.pid,
      cmd: job.cmd,
      started: job.process.startedAt / 1000,
    })),
});
