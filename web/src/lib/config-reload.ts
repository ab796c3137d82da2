import { api } from './api.ts';

/** `POST /reload`'s answer when the new configuration was taken. */
export interface ReloadOutcome {
  reloaded: boolean;
  /** Things worth knowing about the new configuration (it was applied anyway). */
  warnings: string[];
  /** Settings that changed but apply only after a restart. */
  restart_needed: string[];
}

function strings(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
}

/**
 * Re-reads the configuration file. A refused configuration (the running one is kept) throws an
 * `ApiError` with the server's reasons.
 *
 * @example
 * const { warnings, restart_needed } = await reloadConfiguration();
 */
export async function reloadConfiguration(): Promise<ReloadOutcome> {
  const body = await api<Partial<ReloadOutcome> | null>('POST', '/reload');
  return {
    reloaded: body?.reloaded !== false,
    warnings: strings(body?.warnings),
    restart_needed: strings(body?.restart_needed),
  };
}
