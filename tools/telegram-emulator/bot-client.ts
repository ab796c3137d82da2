import type { TelegramEmulator } from './index.ts';

/** A Bot API answer as the tests read it. */
export type Envelope = {
  ok: boolean;
  result?: unknown;
  error_code?: number;
  description?: string;
  parameters?: { retry_after?: number };
};

/**
 * Calls a method of the emulator as a bot would: `params` as JSON, a form or multipart/form-data.
 *
 * @example
 * const { status, body } = await bot(emu, 'getMe');
 */
export async function bot(
  emu: TelegramEmulator,
  method: string,
  params?: Record<string, unknown> | FormData | URLSearchParams,
  token = emu.token,
): Promise<{ status: number; body: Envelope }> {
  const body =
    params instanceof FormData || params instanceof URLSearchParams
      ? params
      : params === undefined
        ? undefined
        : JSON.stringify(params);
  const res = await fetch(`${emu.url}/bot${token}/${method}`, {
    method: 'POST',
    ...(typeof body === 'string' ? { headers: { 'content-type': 'application/json' } } : {}),
    ...(body === undefined ? {} : { body }),
  });
  return { status: res.status, body: (await res.json()) as Envelope };
}
