// Without a `redis` section nothing changes: inspect.instances says the cluster is off and
// lists this instance, /readyz does not depend on Redis, and a request for another instance is
// NOT_FOUND (there is no other instance).
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeApp } from '../helpers/service.ts';
import type { TestApp } from '../helpers/service.ts';

let t: TestApp;
beforeEach(async () => {
  t = await makeApp();
});
afterEach(async () => {
  await t.close();
});

describe('a single instance (no redis section)', () => {
  it('reports the cluster off, itself as the only instance, and is ready', async () => {
    const { message } = await t.service.execute(
      { type: 'request', action: 'inspect.instances' },
      { transport: 'cli' },
    );
    expect(message.response.output).toMatchObject({
      cluster: 'off',
      redis: null,
      self: 'test-host',
      instances: [
        { device_id: 'test-host', self: true, plugins: expect.arrayContaining(['utils']) },
      ],
    });
    expect((await t.app.inject({ method: 'GET', url: '/readyz' })).statusCode).toBe(200);
  });

  it('answers NOT_FOUND for a request whose target is another instance', async () => {
    const { error, message } = await t.service.execute(
      { type: 'request', action: 'utils.echo', target: 'kitchen' },
      { transport: 'cli' },
    );
    expect(error?.code).toBe('NOT_FOUND');
    expect(message.response.errors[0]).toMatch(
      /no instance named "kitchen" \(this one is "test-host"\)/,
    );
  });
});
