import type { Logger } from './core/logger.ts';

/** Exit status after an uncaught exception (EX_SOFTWARE): a service manager restarts on it. */
export const EXIT_UNCAUGHT = 70;

/**
 * The last-resort policy of `pipit start` for errors that escaped every handler:
 * - an unhandled promise rejection is logged (error, with the reason and its stack) and the service
 *   keeps serving: a rejected promise has changed nothing that later requests rely on;
 * - an uncaught exception is logged (fatal) and the service shuts down gracefully (requests in
 *   flight get their grace period) and exits with status 70, because the code that threw stopped
 *   halfway and the process state can no longer be trusted. systemd (`Restart=on-failure`) or the
 *   container runtime starts it again.
 *
 * Library users (`run()`, `startPipit()`) keep their own process policy: only the CLI installs this.
 *
 * @example
 * installProcessPolicy(log, () => running.stop());
 */
export function installProcessPolicy(
  log: Logger,
  stop: () => Promise<void>,
  opts: { exit?: (code: number) => void; forceAfterMs?: number } = {},
): () => void {
  const exit = opts.exit ?? ((code: number) => process.exit(code));
  let stopping = false;
  const onRejection = (reason: unknown) => {
    log.error(
      { err: reason, kind: 'unhandledRejection' },
      'a promise was rejected and nothing handled it (a bug: please report it); the service keeps running',
    );
  };
  const onException = (err: Error, origin: string) => {
    log.fatal(
      { err, kind: origin },
      'uncaught exception (a bug: please report it): shutting down so that the service manager restarts Pipit',
    );
    if (stopping) return;
    stopping = true;
    setTimeout(() => exit(EXIT_UNCAUGHT), opts.forceAfterMs ?? 30_000).unref();
    stop().then(
      () => exit(EXIT_UNCAUGHT),
      () => exit(EXIT_UNCAUGHT),
    );
  };
  process.on('unhandledRejection', onRejection);
  process.on('uncaughtException', onException);
  return () => {
    process.off('unhandledRejection', onRejection);
    process.off('uncaughtException', onException);
  };
}
