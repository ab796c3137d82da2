// The pieces of the cluster's security that need no Redis: sealing, replay refusal, and
// the `redis` section (a URL without a secret is refused; Platypush's form means no cluster).
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ReplayGuard } from '../../src/cluster/replay.ts';
import { Seal, payloadJson } from '../../src/cluster/seal.ts';
import { loadConfig } from '../../src/config/load.ts';
import { builtinPlugins } from '../../src/plugins/index.ts';
import { tempDir } from '../helpers/service.ts';

const SECRET = 'a-secret-of-at-least-16-chars';

describe('sealed messages', () => {
  const seal = new Seal(SECRET);

  it('opens what it sealed, and only that', () => {
    const text = seal.seal('{"v":1,"kind":"event"}');
    expect(text).toMatch(/^pipit1\.[0-9a-f]{64}\.\{"v":1,"kind":"event"\}$/);
    expect(seal.open(text)).toEqual({ ok: true, json: '{"v":1,"kind":"event"}' });
    expect(seal.open(text.replace('event', 'request'))).toEqual({
      ok: false,
      fault: 'bad_signature',
    });
    expect(new Seal('another-secret-of-16-chars').open(text)).toEqual({
      ok: false,
      fault: 'bad_signature',
    });
    expect(seal.open('{"v":1,"kind":"event"}')).toEqual({ ok: false, fault: 'unsigned' });
    expect(seal.open(`pipit1.${'0'.repeat(63)}.{}`)).toEqual({ ok: false, fault: 'unsigned' });
    expect(seal.open(`pipit1.${'z'.repeat(64)}.{}`)).toEqual({ ok: false, fault: 'bad_signature' });
  });

  it('splices a member of ready-made JSON into a payload', () => {
    expect(payloadJson({ v: 1 }, 'event', '{"a":[1]}')).toBe('{"v":1,"event":{"a":[1]}}');
    expect(payloadJson({}, 'm', '2')).toBe('{"m":2}');
  });
});

describe('replay refusal', () => {
  it('accepts a fresh nonce once, and refuses what is out of the window', () => {
    const guard = new ReplayGuard(30_000);
    const now = Date.now();
    expect(guard.check(now, 'nonce-0000000001', now)).toBeUndefined();
    expect(guard.check(now, 'nonce-0000000001', now)).toBe('replayed');
    expect(guard.check(now - 31_000, 'nonce-0000000002', now)).toBe('stale');
    expect(guard.check(now + 31_000, 'nonce-0000000003', now)).toBe('stale');
  });

  it('takes events up to the catch-up window old, a skew ahead, and keeps nonces all that time', () => {
    // catch_up_seconds + clock_skew_seconds behind, clock_skew_seconds ahead.
    const guard = new ReplayGuard(310_000, 10_000);
    const now = 1_795_000_000_000;
    expect(guard.check(now - 310_000, 'nonce-0000000011', now)).toBeUndefined();
    expect(guard.check(now - 310_001, 'nonce-0000000012', now)).toBe('stale');
    expect(guard.check(now + 10_000, 'nonce-0000000013', now)).toBeUndefined();
    expect(guard.check(now + 10_001, 'nonce-0000000014', now)).toBe('stale');
    // A copy of the event dated ahead, pushed again at the last moment it is fresh.
    expect(guard.check(now + 10_000, 'nonce-0000000013', now + 320_000)).toBe('replayed');
  });
});

describe('the redis section', () => {
  let dir: string;
  let cleanup: () => void;
  beforeEach(() => ({ dir, cleanup } = tempDir()));
  afterEach(() => cleanup());
  const load = (yaml: string, env: NodeJS.ProcessEnv = {}) => {
    const path = join(dir, 'config.yaml');
    writeFileSync(path, yaml);
    return loadConfig({ path, plugins: builtinPlugins, env });
  };

  it('refuses a URL without a secret, naming the key and the fix', () => {
    expect(() => load('redis:\n  url: redis://127.0.0.1:6379\n')).toThrow(
      /config\.yaml: redis\.secret: required with redis\.url: .*secret: !env PIPIT_CLUSTER_SECRET/,
    );
    expect(() => load('redis:\n  url: redis://h:1\n  secret: short\n')).toThrow(
      /redis\.secret: use at least 16 characters/,
    );
  });

  it('reads the secret from the environment, with defaults for the rest', () => {
    const config = load('redis:\n  url: rediss://u:p@h:6380/2\n  secret: !env S\n', { S: SECRET });
    expect(config.redis).toMatchObject({
      url: 'rediss://u:p@h:6380/2',
      secret: SECRET,
      request_timeout_seconds: 10,
      heartbeat_seconds: 2,
    });
  });

  it("reads Platypush's host/port form as no cluster, with a warning", () => {
    const config = load('redis:\n  host: 127.0.0.1\n  port: 6379\n');
    expect(config.redis).toBeNull();
    expect(config.redisUrl).toBe('redis://127.0.0.1:6379');
    expect(config.warnings.join('\n')).toMatch(/runs alone without redis\.secret/);
  });
});
