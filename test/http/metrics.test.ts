import { once } from 'node:events';
import { writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { loadConfig } from '../../src/config/load.ts';
import { createLogger } from '../../src/core/logger.ts';
import { buildHttpApp } from '../../src/http/server.ts';
import { requireMetrics } from '../../src/metrics/metrics.ts';
import { createService } from '../../src/app/service.ts';
import { builtinPlugins } from '../../src/plugins/index.ts';
import { accepting, freePort } from '../helpers/net.ts';
import { parseExposition, promNumber, sample } from '../helpers/prometheus.ts';
import type { Exposition } from '../helpers/prometheus.ts';
import { makeApp, registerAndToken, tempDir } from '../helpers/service.ts';
import type { TestApp } from '../helpers/service.ts';
import { authorize, spotifyApp, startEmu } from '../plugins/spotify/helpers.ts';
import type { SpotifyEmulator } from '../../tools/spotify-emulator/index.ts';
import { bearer, closeAll, connect } from './ws-client.ts';

const YAML = `
event.hook.Ping:
  if: {type: CustomEvent, subtype: metrics_ping}
  then:
    - action: utils.echo
      args: {text: pong}
cron.Broken:
  cron_expression: '0 0 1 1 *'
  actions:
    - action: utils.sleep
      args: {seconds: never}
`;

describe('GET /metrics', () => {
  let t: TestApp;
  let token: string;
  let metricsPort: number;
  let base: string;

  const scrape = async (): Promise<Exposition> => {
    const res = await t.app.inject({ method: 'GET', url: '/metrics', ...bearer(token) });
    expect(res.statusCode).toBe(200);
    return parseExposition(res.body);
  };
  const exec = (action: string, args: Record<string, unknown> = {}) =>
    t.app.inject({
      method: 'POST',
      url: '/execute',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      payload: { type: 'request', action, args },
    });

  beforeAll(async () => {
    metricsPort = await freePort();
    t = await makeApp(YAML, { http: { metrics: { port: metricsPort } } });
    token = await registerAndToken(t.app);
    base = (await t.app.listen({ port: 0, host: '127.0.0.1' })).replace(/^http/, 'ws');
  });
  afterEach(() => closeAll());
  afterAll(() => t?.close());

  it('needs a token on the main port (401 without one), and takes Bearer, X-Token or Basic', async () => {
    const anonymous = await t.app.inject({ method: 'GET', url: '/metrics' });
    expect(anonymous.statusCode).toBe(401);
    expect(anonymous.json().response.errors[0]).toMatch(/authentication required/);
    const wrong = await t.app.inject({ method: 'GET', url: '/metrics', ...bearer('nope') });
    expect(wrong.statusCode).toBe(401);

    const viaBearer = await t.app.inject({ method: 'GET', url: '/metrics', ...bearer(token) });
    expect(viaBearer.statusCode).toBe(200);
    expect(viaBearer.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
    const viaXToken = await t.app.inject({
      method: 'GET',
      url: '/metrics',
      headers: { 'x-token': token },
    });
    expect(viaXToken.statusCode).toBe(200);
    const basic = Buffer.from('ada:correct horse battery').toString('base64');
    const viaBasic = await t.app.inject({
      method: 'GET',
      url: '/metrics',
      headers: { authorization: `Basic ${basic}` },
    });
    expect(viaBasic.statusCode).toBe(200);
  });

  it('counts requests by transport, action and outcome, with a latency histogram', async () => {
    expect((await exec('utils.echo', { text: 'a' })).statusCode).toBe(200);
    expect((await exec('utils.echo', { text: 'b' })).statusCode).toBe(200);
    expect((await exec('utils.sleep', { seconds: 'soon' })).statusCode).toBe(400);

    const m = await scrape();
    const ok = { transport: 'http', action: 'utils.echo', outcome: 'ok' };
    expect(sample(m, 'pipit_requests_total', ok)).toBe(2);
    expect(sample(m, 'pipit_request_duration_seconds_count', ok)).toBe(2);
    expect(sample(m, 'pipit_request_duration_seconds_bucket', { ...ok, le: '+Inf' })).toBe(2);
    expect(sample(m, 'pipit_request_duration_seconds_sum', ok)).toBeGreaterThanOrEqual(0);
    const buckets = m.samples
      .filter((s) => s.name === 'pipit_request_duration_seconds_bucket')
      .filter((s) => s.labels.action === 'utils.echo' && s.labels.transport === 'http')
      .filter((s) => s.labels.outcome === 'ok')
      .map((s) => [promNumber(s.labels.le!), s.value] as const)
      .sort((a, b) => a[0] - b[0]);
    expect(buckets.length).toBeGreaterThan(5);
    for (let i = 1; i < buckets.length; i++)
      expect(buckets[i]![1]).toBeGreaterThanOrEqual(buckets[i - 1]![1]); // cumulative
    const failed = { transport: 'http', action: 'utils.sleep', outcome: 'failed' };
    expect(sample(m, 'pipit_requests_total', failed)).toBe(1);
    expect(sample(m, 'pipit_request_duration_seconds_count', failed)).toBe(1);
    expect(sample(m, 'pipit_requests_total', { ...ok, outcome: 'failed' })).toBeUndefined();
    expect(m.types.get('pipit_requests_total')).toBe('counter');
    expect(m.types.get('pipit_request_duration_seconds')).toBe('histogram');
  });

  it('labels unknown action names "(unknown)", so clients cannot add series', async () => {
    const names = [
      `nope_${Date.now().toString(36)}.x`,
      'utils.no_such_action',
      'procedure.nope',
      'music.spotify.play', // a plugin Pipit has, not enabled here
    ];
    for (const name of names) expect((await exec(name)).statusCode).toBe(404);
    const malformed = `not an action ${Date.now()}`;
    expect((await exec(malformed)).statusCode).toBe(400);
    names.push(malformed);

    const m = await scrape();
    expect(
      sample(m, 'pipit_requests_total', {
        transport: 'http',
        action: '(unknown)',
        outcome: 'failed',
      }),
    ).toBe(names.length);
    const actions = new Set(m.samples.map((s) => s.labels.action).filter(Boolean));
    for (const name of names) expect(actions).not.toContain(name);
  });

  it('tracks WebSocket connections by endpoint and counts events delivered', async () => {
    const gauge = (m: Exposition, endpoint: string) =>
      sample(m, 'pipit_ws_connections', { endpoint });
    let m = await scrape();
    expect(gauge(m, '/ws/events')).toBe(0);
    expect(gauge(m, '/ws/requests')).toBe(0);
    const deliveredBefore = sample(m, 'pipit_ws_events_delivered_total')!;

    const events = await connect(`${base}/ws/events`, bearer(token));
    const requests = await connect(`${base}/ws/requests`, bearer(token));
    requests.send({ type: 'request', action: 'utils.echo', args: { text: 'ws' }, id: 'w1' });
    expect((await requests.next()).id).toBe('w1');
    m = await scrape();
    expect(gauge(m, '/ws/events')).toBe(1);
    expect(gauge(m, '/ws/requests')).toBe(1);
    expect(
      sample(m, 'pipit_requests_total', { transport: 'ws', action: 'utils.echo', outcome: 'ok' }),
    ).toBe(1);

    await t.service.events.emit('CustomEvent', { subtype: 'for_ws' });
    await events.next((f) => f.type === 'event' && f.args.subtype === 'for_ws');
    m = await scrape();
    expect(sample(m, 'pipit_ws_events_delivered_total')).toBe(deliveredBefore + 1);

    events.ws.close();
    requests.ws.close();
    await Promise.all([events.closed, requests.closed]);
    await vi.waitFor(async () => {
      const after = await scrape();
      expect(gauge(after, '/ws/events')).toBe(0);
      expect(gauge(after, '/ws/requests')).toBe(0);
    });
  });

  it('counts hook runs and their steps, and failing cron runs', async () => {
    const fired = await t.service.execute(
      { type: 'request', action: 'event.fire', args: { subtype: 'metrics_ping' } },
      { transport: 'test' },
    );
    expect(fired.message.response.errors).toEqual([]);
    await t.service.events.idle();
    expect(await t.service.scheduler.runNow('Broken')).toBe('failed');

    const m = await scrape();
    expect(sample(m, 'pipit_hook_runs_total', { hook: 'Ping', outcome: 'ok' })).toBe(1);
    expect(sample(m, 'pipit_hook_runs_total', { hook: 'Ping', outcome: 'failed' })).toBeUndefined();
    expect(sample(m, 'pipit_cron_runs_total', { cron: 'Broken', outcome: 'failed' })).toBe(1);
    // The steps inside the hook and the cron are steps, not requests.
    expect(
      sample(m, 'pipit_procedure_steps_total', { action: 'utils.echo', outcome: 'ok' }),
    ).toBeGreaterThanOrEqual(1);
    expect(
      sample(m, 'pipit_procedure_steps_total', { action: 'utils.sleep', outcome: 'failed' }),
    ).toBe(1);
    expect(
      sample(m, 'pipit_requests_total', {
        transport: 'test',
        action: 'event.fire',
        outcome: 'ok',
      }),
    ).toBe(1);
  });

  it('documents every pipit_ metric and includes the process metrics', async () => {
    const m = await scrape();
    const names = [...m.types.keys()].filter((n) => n.startsWith('pipit_'));
    expect(names).toEqual(
      expect.arrayContaining([
        'pipit_requests_total',
        'pipit_request_duration_seconds',
        'pipit_procedure_steps_total',
        'pipit_hook_runs_total',
        'pipit_cron_runs_total',
        'pipit_ws_connections',
        'pipit_ws_events_delivered_total',
        'pipit_upstream_requests_total',
      ]),
    );
    for (const name of names) expect(m.help.get(name)?.length).toBeGreaterThan(20);
    // Without a redis section there is no cluster, and no cluster series (test/cluster has them).
    expect(names.filter((n) => n.startsWith('pipit_cluster_'))).toEqual([]);
    expect(sample(m, 'process_cpu_user_seconds_total')).toBeGreaterThan(0);
    expect(sample(m, 'process_resident_memory_bytes')).toBeGreaterThan(0);
    expect(sample(m, 'nodejs_heap_size_used_bytes')).toBeGreaterThan(0);
    expect(m.types.get('nodejs_eventloop_lag_seconds')).toBe('gauge');
  });

  it('serves /metrics without a token on the separate port, and only /metrics', async () => {
    const res = await fetch(`http://127.0.0.1:${metricsPort}/metrics`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
    const m = parseExposition(await res.text());
    expect(
      sample(m, 'pipit_requests_total', { transport: 'http', action: 'utils.echo', outcome: 'ok' }),
    ).toBe(2);
    expect(sample(m, 'process_resident_memory_bytes')).toBeGreaterThan(0);

    const other = await fetch(`http://127.0.0.1:${metricsPort}/execute`);
    expect(other.status).toBe(404);
    await other.text();
    const post = await fetch(`http://127.0.0.1:${metricsPort}/metrics`, { method: 'POST' });
    expect(post.status).toBe(405);
    await post.text();
  });
});

describe('the separate metrics listener', () => {
  it('starts and stops with the HTTP app', async () => {
    const port = await freePort();
    const t = await makeApp('', { http: { metrics: { port, bind_address: '127.0.0.1' } } });
    expect(await accepting(port)).toBe(true);
    await t.close();
    expect(await accepting(port)).toBe(false);
  });

  it('is off by default', async () => {
    const t = await makeApp();
    try {
      expect(t.service.config.http?.metrics).toBeUndefined();
    } finally {
      await t.close();
    }
  });

  it('refuses to start on a port in use, naming the key to change', async () => {
    const blocker = createServer().listen(0, '127.0.0.1');
    await once(blocker, 'listening');
    const { port } = blocker.address() as AddressInfo;
    const { dir, cleanup } = tempDir();
    const path = join(dir, 'config.yaml');
    writeFileSync(path, `workdir: ./data\nbackend.http:\n  port: 0\n  metrics: {port: ${port}}\n`);
    const service = await createService(loadConfig({ path, plugins: builtinPlugins }), {
      log: createLogger({ level: 'silent' }),
    });
    const app = await buildHttpApp(service);
    try {
      const error = await app.ready().then(
        () => undefined,
        (err: unknown) => err,
      );
      expect(error).toMatchObject({ code: 'CONFIG_INVALID' });
      expect((error as Error).message).toMatch(
        new RegExp(
          `port ${port} on 127\\.0\\.0\\.1 is already in use: set backend\\.http\\.metrics\\.port`,
        ),
      );
    } finally {
      await app.close();
      await service.close();
      blocker.close();
      cleanup();
    }
  });

  it.each([
    ['{}', /backend\.http\.metrics\.port: expected a TCP port/],
    ['{port: 70000}', /backend\.http\.metrics\.port: expected a TCP port/],
    ['{port: 8008}', /backend\.http\.metrics\.port: must differ from backend\.http\.port/],
    ['9464', /backend\.http\.metrics: expected \{port, bind_address\?\}/],
    ['{port: 9464, bind: x}', /unknown key "bind"/],
  ])('refuses metrics: %s with a clear message', (value, message) => {
    const { dir, cleanup } = tempDir();
    try {
      const path = join(dir, 'config.yaml');
      writeFileSync(path, `workdir: ./data\nbackend.http:\n  port: 8008\n  metrics: ${value}\n`);
      expect(() => loadConfig({ path, plugins: builtinPlugins })).toThrow(message);
    } finally {
      cleanup();
    }
  });
});

describe('Spotify API calls', () => {
  let emu: SpotifyEmulator;
  let t: TestApp;

  beforeAll(async () => {
    emu = await startEmu();
    t = await spotifyApp(emu);
    expect((await authorize(t)).status).toBe(200);
  });
  afterAll(async () => {
    await t?.close();
    await emu?.close();
  });

  it('are counted by status code, 429s included', async () => {
    const counted = async (status: string) =>
      sample(
        parseExposition(await requireMetrics(t.service).scrape()),
        'pipit_upstream_requests_total',
        {
          api: 'spotify',
          method: 'GET',
          status,
        },
      ) ?? 0;
    const ok = await counted('200');
    expect(await counted('429')).toBe(0);

    emu.control.addFault({
      path: '/v1/me/player/devices',
      times: 1,
      response: { kind: 'rate-limit', retryAfter: 3600 },
    });
    const { message } = await t.service.execute(
      { type: 'request', action: 'music.spotify.get_devices' },
      { transport: 'library' },
    );
    expect(message.response.errors[0]).toMatch(/rate limit/);
    expect(await counted('429')).toBe(1);
    expect(await counted('200')).toBe(ok);
  });
});
