// ntfy's error answers, `{"code":40101,"http":401,"error":"unauthorized","link":"..."}`: the
// shape and texts of server/errors.go in github.com/binwiederhier/ntfy (the docs link to it as
// "the error codes"; the publish page shows none).

/** An error answer: ntfy's code, the HTTP status, the text and the doc link (when it has one). */
export interface NtfyError {
  code: number;
  http: number;
  error: string;
  link?: string;
}

const AUTH_LINK = 'https://ntfy.sh/docs/publish/#authentication';
const LIMITS_LINK = 'https://ntfy.sh/docs/publish/#limitations';

export const ERRORS = {
  badRequest: { code: 40000, http: 400, error: 'invalid request' },
  priorityInvalid: {
    code: 40007,
    http: 400,
    error: 'invalid priority parameter',
    link: 'https://ntfy.sh/docs/publish/#message-priority',
  },
  sinceInvalid: {
    code: 40008,
    http: 400,
    error: 'invalid since parameter',
    link: 'https://ntfy.sh/docs/subscribe/api/#fetch-cached-messages',
  },
  topicInvalid: { code: 40009, http: 400, error: 'invalid request: topic invalid' },
  attachmentUrlInvalid: {
    code: 40013,
    http: 400,
    error: 'invalid request: attachment URL is invalid',
    link: 'https://ntfy.sh/docs/publish/#attachments',
  },
  messageJsonInvalid: {
    code: 40017,
    http: 400,
    error: 'invalid request: request body must be message JSON',
    link: 'https://ntfy.sh/docs/publish/#publish-as-json',
  },
  actionsInvalid: {
    code: 40018,
    http: 400,
    error: 'invalid request: actions invalid',
    link: 'https://ntfy.sh/docs/publish/#action-buttons',
  },
  unauthorized: { code: 40101, http: 401, error: 'unauthorized', link: AUTH_LINK },
  forbidden: { code: 40301, http: 403, error: 'forbidden', link: AUTH_LINK },
  notFound: { code: 40401, http: 404, error: 'page not found' },
  tooManyRequests: {
    code: 42901,
    http: 429,
    error: 'limit reached: too many requests',
    link: LIMITS_LINK,
  },
  internal: { code: 50001, http: 500, error: 'internal server error' },
} as const satisfies Record<string, NtfyError>;

/** The error a failure injected with `failNext(status)` answers. */
export function errorForStatus(status: number): NtfyError {
  const known: NtfyError | undefined = Object.values(ERRORS).find((e) => e.http === status);
  return known ?? { code: status * 100, http: status, error: `HTTP ${status}` };
}
