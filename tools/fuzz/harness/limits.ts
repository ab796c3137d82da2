// Time limits of the fuzz drivers, and the kinds of violations.
/** How long an HTTP request may take to be answered (hook listeners time out after 5 s). */
export const ANSWER_TIMEOUT_MS = 15_000;
/** How long a WebSocket frame may take to be answered (the server answers at once). */
export const FRAME_TIMEOUT_MS = 10_000;

/** Violation kinds that are about the whole server, not one input. */
export const SERVER_WIDE: ReadonlySet<string> = new Set(['crash', 'hang', 'down']);

/** The kind of a violation ("crash: ..." → "crash"). */
export function kindOf(violation: string): string {
  return violation.slice(0, violation.indexOf(':'));
}
