import { api } from './api.ts';

// The shapes the server answers, from its own schemas (type-only: nothing is bundled).
import type {
  CreateTokenBody,
  IssuedToken,
  TokenInfo,
  TokenList,
} from '../../../src/http/wire/tokens.ts';

export type { IssuedToken, TokenInfo };

/** Lists the signed-in user's tokens, newest first. */
export async function listTokens(): Promise<TokenInfo[]> {
  const { tokens } = await api<TokenList>('GET', '/tokens');
  return [...tokens].sort((a, b) => b.created_at - a.created_at);
}

/** Creates a token; the password is re-entered because a token outlives the session. */
export function createToken(
  password: string,
  name: string,
  expiryDays: number | null,
): Promise<IssuedToken> {
  return api<IssuedToken>('POST', '/tokens', {
    password,
    ...(name ? { name } : {}),
    expiry_days: expiryDays,
  } satisfies CreateTokenBody);
}

/** Revokes a token at once (the server also closes WebSockets opened with it). */
export async function revokeToken(id: string): Promise<void> {
  await api('DELETE', `/tokens/${encodeURIComponent(id)}`);
}

/** Checks the optional expiry field: empty = never, else a positive number of days ≤ 3650. */
export function parseExpiryDays(text: string): { days: number | null; error?: string } {
  if (text.trim() === '') return { days: null };
  const days = Number(text);
  if (!Number.isFinite(days) || days <= 0)
    return { days: null, error: 'Enter a positive number of days, or leave empty for no expiry.' };
  if (days > 3650) return { days: null, error: 'At most 3650 days (10 years).' };
  return { days };
}
