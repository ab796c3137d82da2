/** Formats UNIX seconds (fractional) as a local date and time, or a dash for null. */
export function formatUnixTime(seconds: number | null | undefined): string {
  if (seconds === null || seconds === undefined) return '—';
  return new Date(seconds * 1000).toLocaleString(undefined, {
    dateStyle: 'medium',
    timeStyle: 'short',
  });
}

/** Formats a duration: `850 ms`, `2.40 s`, `3 min 5 s`. */
export function formatDuration(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(2)} s`;
  const s = Math.round(ms / 1000);
  return `${Math.floor(s / 60)} min ${s % 60} s`;
}

/** Pretty-prints a value as JSON (2 spaces); undefined prints as nothing. */
export function prettyJson(value: unknown): string {
  return value === undefined ? '' : JSON.stringify(value, null, 2);
}

/**
 * How far a UNIX time is from `now` in words: `in 59 min`, `3 h ago`, `in 2 days`.
 *
 * @example
 * formatRelative(Date.now() / 1000 + 3540); // 'in 59 min'
 */
export function formatRelative(seconds: number, now = Date.now()): string {
  const diff = seconds - now / 1000;
  const abs = Math.abs(diff);
  const text =
    abs < 60
      ? 'less than a minute'
      : abs < 3600
        ? `${Math.round(abs / 60)} min`
        : abs < 86_400
          ? `${Math.round(abs / 3600)} h`
          : `${Math.round(abs / 86_400)} days`;
  if (abs < 60) return diff >= 0 ? `in ${text}` : 'just now';
  return diff >= 0 ? `in ${text}` : `${text} ago`;
}

/**
 * A server message as a sentence: messages start in lower case ("the password is wrong"), so the
 * first letter is raised, unless the message starts with a name that must stay as written (an
 * action such as `utils.sleep`, a path, an identifier).
 *
 * @example
 * asSentence('the password is wrong'); // 'The password is wrong'
 * asSentence('utils.sleep: argument "seconds" …'); // unchanged
 */
export function asSentence(message: string): string {
  return /^[a-z]+(?:[\s,:;]|$)/.test(message)
    ? `${message[0]!.toUpperCase()}${message.slice(1)}`
    : message;
}
