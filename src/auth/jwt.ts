import { createHmac, createSecretKey, randomBytes, timingSafeEqual } from 'node:crypto';
import type { KeyObject } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PipitError } from '../core/errors.ts';

// jose (46 modules) loads with the first token signed or verified, not with every process: a
// one-off command or a start-up may never need it.
const jose = () => import('jose');

const ISSUER = 'pipit';
const NOT_VALID = 'the token is not valid: check that it was copied whole';
// A JWS in compact form: three base64url parts, the last an HS256 signature (32 bytes, 43 chars).
const HS256_SHAPE = /^[\w-]+\.[\w-]+\.[\w-]{43}$/;
const AUDIENCE = 'pipit-api';

/** The claims Pipit puts in an API token. */
export interface TokenClaims {
  sub: string;
  uid: number;
  jti: string;
  exp?: number;
}

/**
 * Reads the HS256 secret from `<workdir>/jwt.key`, creating it (mode 0600) on first use.
 *
 * @example
 * const key = loadOrCreateSecret('/var/lib/pipit');
 */
export function loadOrCreateSecret(workdir: string): KeyObject {
  const path = join(workdir, 'jwt.key');
  if (!existsSync(path)) {
    mkdirSync(workdir, { recursive: true, mode: 0o700 });
    writeFileSync(path, randomBytes(64).toString('base64url'), { mode: 0o600, flag: 'wx' });
  }
  chmodSync(path, 0o600);
  const secret = Buffer.from(readFileSync(path, 'utf8').trim(), 'base64url');
  if (secret.length < 32)
    throw new PipitError(
      'UNAVAILABLE',
      `${path}: the JWT secret is shorter than 32 bytes; delete it to make a new one`,
    );
  return createSecretKey(secret);
}

/**
 * Signs and verifies API tokens: real HS256 JWTs. The key is imported once (a KeyObject), because
 * re-importing raw bytes on every verification costs more than the verification itself.
 *
 * @example
 * const jwt = new JwtCodec(loadOrCreateSecret(workdir));
 * const token = await jwt.sign({ sub: 'ada', uid: 1, jti: 'abc' });
 * (await jwt.verify(token)).sub; // 'ada'
 */
export class JwtCodec {
  private readonly key: KeyObject;

  constructor(key: KeyObject) {
    this.key = key;
  }

  async sign(claims: TokenClaims): Promise<string> {
    const { SignJWT } = await jose();
    const jwt = new SignJWT({ uid: claims.uid })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setSubject(claims.sub)
      .setJti(claims.jti)
      .setIssuer(ISSUER)
      .setAudience(AUDIENCE)
      .setIssuedAt();
    if (claims.exp !== undefined) jwt.setExpirationTime(claims.exp);
    return jwt.sign(this.key);
  }

  /**
   * Verifies a token: its signature first, with one HMAC (a garbled or forged token is refused
   * there, without the exceptions jose would build and throw), then jose's full verification.
   */
  async verify(token: string): Promise<TokenClaims> {
    if (!this.signedWithKey(token)) throw new PipitError('UNAUTHORIZED', NOT_VALID);
    const { errors: joseErrors, jwtVerify } = await jose();
    try {
      const { payload } = await jwtVerify(token, this.key, {
        issuer: ISSUER,
        audience: AUDIENCE,
        algorithms: ['HS256'],
      });
      if (
        typeof payload.sub !== 'string' ||
        typeof payload.jti !== 'string' ||
        typeof payload.uid !== 'number'
      ) {
        throw new PipitError('UNAUTHORIZED', 'the token is not a Pipit API token');
      }
      return {
        sub: payload.sub,
        uid: payload.uid,
        jti: payload.jti,
        ...(payload.exp ? { exp: payload.exp } : {}),
      };
    } catch (err) {
      if (err instanceof PipitError) throw err;
      if (err instanceof joseErrors.JWTExpired) {
        throw new PipitError(
          'UNAUTHORIZED',
          'the token has expired: create a new one (POST /auth or Settings -> Tokens)',
          { cause: err },
        );
      }
      throw new PipitError('UNAUTHORIZED', NOT_VALID, { cause: err });
    }
  }

  // Only a pre-check: a token that passes it still goes through jose (algorithm, claims, expiry).
  private signedWithKey(token: string): boolean {
    if (!HS256_SHAPE.test(token)) return false;
    const dot = token.lastIndexOf('.');
    const expected = createHmac('sha256', this.key).update(token.slice(0, dot)).digest();
    const given = Buffer.from(token.slice(dot + 1), 'base64url');
    return given.length === expected.length && timingSafeEqual(given, expected);
  }
}
