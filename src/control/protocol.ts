import { z } from 'zod';

/**
 * One line from the CLI to the running service over the control socket: a request message to
 * execute, or one of the CLI's state-changing commands.
 *
 * @example
 * ControlRequest.parse({ id: '1', kind: 'execute', request: { type: 'request', action: 'utils.echo' } });
 */
export const ControlRequest = z.discriminatedUnion('kind', [
  z.object({ id: z.string().max(64), kind: z.literal('execute'), request: z.unknown() }),
  z.object({
    id: z.string().max(64),
    kind: z.literal('command'),
    command: z.string().max(64),
    args: z.unknown(),
  }),
]);
export type ControlRequest = z.output<typeof ControlRequest>;

/** The answer line: the result (a response message for `execute`), or the error. */
export type ControlReply =
  | { id: string; ok: true; result: unknown }
  | { id: string; ok: false; error: { code: string; message: string } };

/** The longest line either side accepts. */
export const MAX_LINE_BYTES = 16 * 1024 * 1024;
