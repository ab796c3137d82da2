// Redis credentials and TLS. An instance joins a Redis that serves TLS only and wants a
// password (`rediss://:password@host:port`, the CA given through NODE_EXTRA_CA_CERTS); the URL is
// shown without its password; a wrong password keeps the instance out, saying why.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startPipitProcess } from '../helpers/process.ts';
import type { PipitProcess } from '../helpers/process.ts';
import { selfSigned } from '../helpers/self-signed.ts';
import { tempDir } from '../helpers/service.ts';
import { SECRET, configYaml, waitForReadyz } from './harness.ts';
import type { Member } from './harness.ts';
import { startRedis } from './redis-server.ts';
import type { RedisServer } from './redis-server.ts';

const PASSWORD = 'redis password with spaces & symbols';

let temp: ReturnType<typeof tempDir>;
let tls: Awaited<ReturnType<typeof selfSigned>>;
let redis: RedisServer;
const procs: PipitProcess[] = [];

beforeAll(async () => {
  temp = tempDir('pipit-cluster-tls-');
  // A self-signed certificate for 127.0.0.1, trusted by the instance as its own CA.
  tls = await selfSigned();
  const { certPath: cert, keyPath: key } = tls;
  redis = await startRedis({ password: PASSWORD, tls: { cert, key } });
}, 30_000);

afterAll(async () => {
  for (const p of procs) await p.stop();
  await redis?.stop();
  temp?.cleanup();
  tls?.cleanup();
});

// One instance with its own workdir, talking to `url`; unauthenticated calls are enough here.
async function instance(name: string, url: string): Promise<Member> {
  const dir = join(temp.dir, name);
  mkdirSync(join(dir, 'scripts'), { recursive: true });
  const configPath = join(dir, 'config.yaml');
  writeFileSync(configPath, configYaml(name, url, ''));
  const proc = await startPipitProcess(configPath, {
    PIPIT_CLUSTER_SECRET: SECRET,
    NODE_EXTRA_CA_CERTS: tls.certPath,
  });
  procs.push(proc);
  return { name, dir, configPath, proc, url: proc.url, token: '' };
}

describe('Redis over TLS with a password', () => {
  it('connects with rediss:// and the password, and never shows the password', async () => {
    const ok = await instance('secure', redis.url);
    await waitForReadyz(ok, 200);
    const logs = ok.proc.logs.join('\n');
    // The log's own masking shows any password in a URL as [redacted].
    expect(logs).toMatch(/connected to Redis at rediss:\/\/:\[redacted\]@127\.0\.0\.1:\d+/);
    expect(logs).not.toContain(encodeURIComponent(PASSWORD));
    expect(logs).not.toContain(PASSWORD);
  });

  it('stays out, and says why, with a wrong password', async () => {
    const wrong = await instance('wrong', redis.url.replace(/:[^:@/]+@/, ':nope@'));
    expect((await fetch(`${wrong.url}/readyz`)).status).toBe(503);
    await vi.waitFor(() => expect(wrong.proc.logs.join('')).toMatch(/cannot reach Redis/), {
      timeout: 10_000,
      interval: 50,
    });
    expect(wrong.proc.logs.join('\n')).toMatch(
      /cannot reach Redis at rediss:\/\/:\[redacted\]@.*(WRONGPASS|invalid|password)/i,
    );
  });
});
