import type { ErrorCode } from '../core/errors.ts';

// On globalThis: a script may reach Pipit's modules through another path (dist vs src, a symlinked
// package) than the service did, and must still find the same running service.
const ATTACHED = Symbol.for('pipit.library.service');

/** The slice of a running service that `run()` in a script needs. */
export interface AttachedService {
  execute(
    request: unknown,
    opts: { transport: string },
  ): Promise<{
    message: { response: { output: unknown; errors: string[] } };
    error?: { code: ErrorCode } | undefined;
  }>;
}

type Holder = { [ATTACHED]?: AttachedService | undefined };

/**
 * Makes `service` the one that `run()` calls reach (the service loading scripts attaches itself,
 * so that scripts call into it rather than into a second instance); `undefined` detaches.
 *
 * @example
 * attachService(service);
 */
export function attachService(service: AttachedService | undefined): void {
  (globalThis as Holder)[ATTACHED] = service;
}

/**
 * The attached running service, if any.
 *
 * @example
 * const svc = attachedService() ?? (await startOwnService());
 */
export function attachedService(): AttachedService | undefined {
  return (globalThis as Holder)[ATTACHED];
}
