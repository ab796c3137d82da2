/**
 * Why a request to another service failed, in a few words, from what `fetch` (undici) or a socket
 * threw: the system's error in its `cause`. `'message'` (for an action's error): the cause's
 * message, which names the address (`connect ECONNREFUSED 127.0.0.1:9`). `'code'` (for a status
 * line): the system's code alone (`ECONNREFUSED`); undici's own codes (`UND_ERR_SOCKET`) say less
 * than their message (`other side closed`), which is used instead.
 *
 * @example
 * await fetch('http://127.0.0.1:9').catch((err) => networkCause(err)); // 'connect ECONNREFUSED 127.0.0.1:9'
 * await fetch('http://127.0.0.1:9').catch((err) => networkCause(err, 'code')); // 'ECONNREFUSED'
 */
export function networkCause(err: unknown, form: 'message' | 'code' = 'message'): string {
  const cause = (err as { cause?: { code?: unknown; message?: unknown } } | null)?.cause;
  const code = typeof cause?.code === 'string' ? cause.code : undefined;
  const message = typeof cause?.message === 'string' ? cause.message : undefined;
  if (form === 'code' && code?.startsWith('E')) return code;
  return message ?? code ?? (err instanceof Error ? err.message : String(err));
}
