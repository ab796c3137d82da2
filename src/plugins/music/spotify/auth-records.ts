import { z } from 'zod';

// What the authorization stores in the plugin's key-value table (see auth.ts).

/** The Spotify account the tokens act for (from `GET /me`). */
export const SpotifyProfile = z.object({ id: z.string(), display_name: z.string().nullable() });
export type SpotifyProfile = z.output<typeof SpotifyProfile>;

/** The stored credentials (secrets live under `*_token` keys, which the logger redacts). */
export const TokenRecord = z.object({
  access_token: z.string(),
  refresh_token: z.string().optional(),
  /** Epoch ms on the plugin's clock. */
  expires_at: z.number(),
  scope: z.string().default(''),
  client_id: z.string(),
  /** When this access token was obtained (authorization or refresh), epoch ms. */
  obtained_at: z.number(),
  /** When the user authorized (kept across refreshes), epoch ms; absent in older records. */
  authorized_at: z.number().optional(),
  /** The account, once read; kept across refreshes, dropped with the tokens. */
  user: SpotifyProfile.optional(),
});
export type TokenRecord = z.output<typeof TokenRecord>;

/** One authorization address handed out and not used yet. */
const PendingState = z.object({
  expires_at: z.number(),
  code_verifier: z.string().optional(),
  url: z.string(),
  /** The redirect URI of this authorization, when not the plugin's default (the web UI's). */
  redirect_uri: z.string().optional(),
  /** The origin the user started from (`http://localhost:8008`): the callback returns there. */
  return_to: z.string().optional(),
});
export const PendingStates = z.record(z.string(), PendingState);
export type PendingStates = z.output<typeof PendingStates>;

/**
 * What identifies one authorization across refreshes: when the user authorized (or, for records
 * written before that was kept, when the tokens were obtained, which a refresh then carries on).
 *
 * @example
 * grantOf({ ...tokens, authorized_at: 1_800_000_000_000 }); // 1800000000000
 */
export function grantOf(record: TokenRecord): number {
  return record.authorized_at ?? record.obtained_at;
}
