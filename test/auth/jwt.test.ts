import { createSecretKey, randomBytes } from 'node:crypto';
import { SignJWT, UnsecuredJWT } from 'jose';
import { describe, expect, it } from 'vitest';
import { JwtCodec } from '../../src/auth/jwt.ts';
import { PipitError } from '../../src/core/errors.ts';

const key = createSecretKey(randomBytes(64));
const codec = new JwtCodec(key);
const claims = { sub: 'ada', uid: 1, jti: 'abc' };

async function refusal(token: string): Promise<PipitError> {
  const err = await codec.verify(token).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(PipitError);
  expect((err as PipitError).code).toBe('UNAUTHORIZED');
  return err as PipitError;
}

describe('JwtCodec', () => {
  it('verifies its own tokens', async () => {
    const token = await codec.sign(claims);
    expect(await codec.verify(token)).toEqual(claims);
  });

  it('refuses garbled, truncated, re-signed and foreign tokens with one message', async () => {
    const good = await codec.sign(claims);
    const [header, payload, signature] = good.split('.') as [string, string, string];
    const flipped = signature[0] === 'A' ? 'B' : 'A';
    const foreign = await new JwtCodec(createSecretKey(randomBytes(64))).sign(claims);
    const otherClaims = Buffer.from(JSON.stringify({ ...claims, sub: 'mallory' })).toString(
      'base64url',
    );
    const bad = [
      'not.a.token',
      '',
      good.slice(0, -1),
      `${header}.${payload}.${flipped}${signature.slice(1)}`,
      `${header}.${otherClaims}.${signature}`,
      foreign,
      new UnsecuredJWT({ uid: 1 }).setSubject('ada').setJti('abc').encode(),
    ];
    for (const token of bad) {
      const err = await refusal(token);
      expect(err.message, token).toBe('the token is not valid: check that it was copied whole');
      // Refused by the signature check, before jose built an exception of its own.
      expect(err.cause, token).toBeUndefined();
    }
  });

  it('leaves the algorithm to jose: an HS512 token made with the same key is refused', async () => {
    const hs512 = await new SignJWT({ uid: 1 })
      .setProtectedHeader({ alg: 'HS512' })
      .setSubject('ada')
      .setJti('abc')
      .setIssuer('pipit')
      .setAudience('pipit-api')
      .sign(key);
    await refusal(hs512);
  });

  it('says an expired token has expired (its signature is good)', async () => {
    const old = await codec.sign({ ...claims, exp: Math.floor(Date.now() / 1000) - 60 });
    expect((await refusal(old)).message).toMatch(/has expired/);
  });
});
