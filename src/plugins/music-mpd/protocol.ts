import { PipitError } from '../api/index.ts';

/** An argument of an MPD command: numbers are written as they are, strings quoted. */
export type MpdArg = string | number;

/** One command: its name and arguments, e.g. `['add', 'Album/one.flac']`. */
export type MpdCommand = readonly [name: string, ...args: MpdArg[]];

/**
 * Quotes one argument as MPD's protocol asks: in double quotes, with `"` and `\` escaped by a
 * backslash, so that `x" ; clear` stays one argument. A line break cannot be escaped in MPD's
 * line-based protocol (it would end the command and start another), so it is refused.
 *
 * @example
 * quoteArg('x" ; clear'); // '"x\\" ; clear"'
 */
export function quoteArg(arg: MpdArg): string {
  const text = String(arg);
  if (/[\r\n]/.test(text))
    throw new PipitError(
      'INVALID_ARGUMENTS',
      `music.mpd: ${JSON.stringify(text)} holds a line break, which MPD's protocol cannot carry: remove it`,
    );
  return `"${text.replace(/[\\"]/g, (c) => `\\${c}`)}"`;
}

/**
 * The line that sends a command (without its newline).
 *
 * @example
 * commandLine(['seekcur', '+15']); // 'seekcur "+15"'
 */
export function commandLine([name, ...args]: MpdCommand): string {
  if (!/^[a-z_]+$/.test(name)) throw new Error(`music.mpd: "${name}" is not an MPD command name`);
  return [name, ...args.map(quoteArg)].join(' ');
}

/** MPD's failure answer: `ACK [code@index] {command} message`. */
export interface MpdAck {
  /** MPD's error number (ack.h): 2 bad argument, 3 wrong password, 4 no permission, 50 no such thing... */
  code: number;
  /** The position in a command list of the command that failed (0 outside lists). */
  index: number;
  command: string;
  message: string;
}

/**
 * Reads an `ACK` line; undefined when it is not one.
 *
 * @example
 * parseAck('ACK [50@0] {load} No such playlist'); // { code: 50, index: 0, command: 'load', message: 'No such playlist' }
 */
export function parseAck(line: string): MpdAck | undefined {
  const m = /^ACK \[(\d+)@(\d+)\] \{([^}]*)\} ?(.*)$/.exec(line);
  if (!m) return undefined;
  return { code: Number(m[1]), index: Number(m[2]), command: m[3]!, message: m[4]! };
}

/** MPD's error numbers (src/protocol/Ack.hxx) that say which Pipit code fits. */
const ACK = { ARG: 2, PASSWORD: 3, PERMISSION: 4, UNKNOWN: 5, NO_EXIST: 50, EXIST: 56 } as const;

/**
 * The error for an ACK answer, naming the command and MPD's message: a bad argument is
 * INVALID_ARGUMENTS, something that does not exist NOT_FOUND, a name taken CONFLICT, a refused
 * password or permission names `music.mpd.password`; anything else is ACTION_FAILED.
 *
 * @example
 * ackError({ code: 50, index: 0, command: 'load', message: 'No such playlist' });
 * // PipitError NOT_FOUND 'music.mpd: MPD refused "load": No such playlist'
 */
export function ackError(ack: MpdAck): PipitError {
  const said = `music.mpd: MPD refused "${ack.command}": ${ack.message} (ACK ${ack.code})`;
  const details = { ack };
  switch (ack.code) {
    case ACK.ARG:
      return new PipitError('INVALID_ARGUMENTS', said, { details });
    case ACK.NO_EXIST:
      return new PipitError('NOT_FOUND', said, { details });
    case ACK.EXIST:
      return new PipitError('CONFLICT', said, { details });
    case ACK.PASSWORD:
      return new PipitError('UPSTREAM_ERROR', `${said}: check music.mpd.password`, { details });
    case ACK.PERMISSION:
      return new PipitError(
        'UPSTREAM_ERROR',
        `${said}: MPD wants a password for it; set music.mpd.password`,
        { details },
      );
    case ACK.UNKNOWN:
      // MPD's catch-all too ("Not seekable", "Not playing"): only "unknown command" is one.
      return /^unknown command/i.test(ack.message)
        ? new PipitError('UPSTREAM_ERROR', `${said}: this MPD does not know it (too old?)`, {
            details,
          })
        : new PipitError('ACTION_FAILED', said, { details });
    default:
      return new PipitError('ACTION_FAILED', said, { details });
  }
}

/** True for an ACK that says the password is missing or wrong (a link error, not a call's). */
export function isAuthAck(ack: MpdAck): boolean {
  return ack.code === ACK.PASSWORD || ack.code === ACK.PERMISSION;
}

/**
 * Compares MPD protocol versions (`0.23.5`): negative when `a` is older than `b`.
 *
 * @example
 * compareVersions('0.23.5', '0.23.3') > 0; // true
 */
export function compareVersions(a: string, b: string): number {
  const pa = a.split('.').map(Number);
  const pb = b.split('.').map(Number);
  for (let i = 0; i < Math.max(pa.length, pb.length); i++) {
    const d = (pa[i] ?? 0) - (pb[i] ?? 0);
    if (d) return d;
  }
  return 0;
}
