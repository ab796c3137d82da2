import { request } from 'node:http';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defineAction, definePlugin } from '../../src/core/action.ts';
import { loadConfig } from '../../src/config/load.ts';
import { createLogger } from '../../src/core/logger.ts';
import { buildHttpApp } from '../../src/http/server.ts';
import { builtinPlugins } from '../../src/plugins/index.ts';
import { createService } from '../../src/app/service.ts';
import type { Service } from '../../src/app/service.ts';
import type { FastifyInstance } from 'fastify';
import { tempDir } from '../helpers/service.ts';

// An action that waits until its caller gives up, and tells the test when that happened.
let started!: () => void;
let aborted!: (reason: unknown) => void;
const startedP = new Promise<void>((r) => (started = r));
const abortedP = new Promise<unknown>((r) => (aborted = r));
const probe = definePlugin({
  name: 'probe',
  summary: 'test probe',
  enabledByDefault: true,
  actions: [
    defineAction({
      name: 'wait',
      summary: 'waits for its signal',
      params: {},
      run: (_a, { signal }) =>
        new Promise((_resolve, reject) => {
          signal.addEventListener('abort', () => {
            aborted(signal.reason);
            reject(new Error('aborted'));
          });
          started();
        }),
    }),
  ],
});

describe('a client that hangs up', () => {
  let service: Service;
  let app: FastifyInstance;
  let cleanup: () => void;
  let url: string;
  let token: string;

  beforeAll(async () => {
    const tmp = tempDir();
    cleanup = tmp.cleanup;
    writeFileSync(
      join(tmp.dir, 'c.yaml'),
      'workdir: ./data\nbackend.http:\n  port: 0\n  bind_address: 127.0.0.1\n',
    );
    const plugins = [...builtinPlugins, probe];
    service = await createService(loadConfig({ path: join(tmp.dir, 'c.yaml'), plugins }), {
      log: createLogger({ level: 'silent' }),
      plugins,
    });
    const user = await service.auth.addUser('ada', 'correct horse battery');
    token = (await service.auth.issueToken(user, {})).token;
    app = await buildHttpApp(service);
    url = await app.listen({ port: 0, host: '127.0.0.1' });
  });
  afterAll(async () => {
    await app.close();
    await service.close();
    cleanup();
  });

  it('aborts the action it was running on POST /execute', async () => {
    const req = request(`${url}/execute`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    });
    req.on('error', () => undefined);
    req.end(JSON.stringify({ type: 'request', action: 'probe.wait' }));
    await startedP;
    req.destroy();
    const reason = await abortedP;
    expect(String((reason as Error).message)).toMatch(/closed the connection/);
  });
});
