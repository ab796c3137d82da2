// What every fuzz generator shares: the limits of the server under test, payloads and inputs as
// they go on the wire, and the kinds of credentials an input carries.
import fc from 'fast-check';

/** Deepest nesting generated. */
export const MAX_DEPTH = 10_000;
/** `backend.http.max_body_bytes` of the server under test (the default). */
export const BODY_LIMIT = 1_048_576;
/** The `device_id` of the server under test. */
export const DEVICE_ID = 'fuzz-host';

/** A payload as it goes on the wire, and what kind of input it is. */
export interface Payload {
  label: string;
  data: string | Uint8Array;
}

/** How an input authenticates; the drivers turn it into headers with real tokens. */
export type AuthKind =
  | 'valid'
  | 'x-token'
  | 'valid-then-garbage'
  | 'none'
  | 'garbage'
  | 'basic'
  | 'basic-wrong'
  | 'tampered'
  | 'revoked'
  | 'empty-bearer'
  | 'cookie'
  | 'query';

/** Kinds of credentials that must let a request in (HTTP Basic: the user's own password). */
export const VALID_AUTH: ReadonlySet<AuthKind> = new Set(['valid', 'x-token', 'basic']);
/** Kinds of credentials that must never let a request in. */
export const INVALID_AUTH: ReadonlySet<AuthKind> = new Set([
  'none',
  'garbage',
  'basic-wrong',
  'tampered',
  'revoked',
  'empty-bearer',
  'cookie',
  'query',
]);

/** One HTTP request. */
export interface HttpInput {
  label: string;
  method: string;
  path: string;
  auth: AuthKind;
  headers: Record<string, string>;
  body: string | Uint8Array | undefined;
}

/** One WebSocket input: a frame on an open connection, or a new connection with odd credentials. */
export type WsInput =
  | { kind: 'frame'; label: string; data: string | Uint8Array; binary: boolean }
  | { kind: 'connect'; label: string; auth: AuthKind; origin: string | undefined };

/** `arb` most of the time, `undefined` otherwise. */
export function maybe<T>(arb: fc.Arbitrary<T>, weightSome: number, weightNone: number) {
  return fc.oneof(
    { weight: weightNone, arbitrary: fc.constant(undefined) },
    { weight: weightSome, arbitrary: arb },
  );
}
