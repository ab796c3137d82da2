import { api } from './api.ts';

// `POST /reload`'s answer when the new configuration was taken (`warnings`: worth knowing, it was
// applied anyway; `restart_needed`: settings that apply only after a restart), from the server's
// schema (type-only: nothing is bundled).
import type { ReloadResult } from '../../../src/http/wire/operations.ts';

export type ReloadOutcome = ReloadResult;

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
    reloaded: true,
    warnings: strings(body?.warnings),
    restart_needed: strings(body?.restart_needed),
  };
}
