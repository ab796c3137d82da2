// Credentials an http call carries or gets back stay out of the run history, the log, what
// /ws/events subscribers get and /metrics: by name (query parameters, headers, answer fields) and
// by shape (Bearer credentials, JWTs), while the calls themselves send the real values.
import { once } from 'node:events';
import { createServer } from 'node:http';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CoreKinds } from '../../../src/events/kinds.ts';
import type { StoredRunDetail } from '../../../src/store/runs.ts';
import { bearer, closeAll, connect, listen } from '../../http/ws-client.ts';
import type { Client, Frame } from '../../http/ws-client.ts';
import { captureLog, makeApp, registerAndToken } from '../../helpers/service.ts';
import type { TestApp } from '../../helpers/service.ts';
import { call } from '../call.ts';

const JWT = 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJhZGEifQ.DATAJWTSIG';

/** Every value that must not be kept or shown, by where it travels. */
const SECRETS = {
  query: ['QAPITOK', 'QACCESS', 'QAPIKEY'],
  headers: ['HXAUTH', 'HPRIV', 'AUTHBEARER1'],
  answer: ['ANSIDTOK', 'ANSSESSION', 'ANSJWT', 'DATABEARER12345', 'DATAJWTSIG'],
  failure: ['FAILAPITOK', 'FAILACCESS', 'FAILIDTOK', 'FAILSESS', 'FAILJWT', 'EVSESSION'],
  typo: ['TYPOAUTHPW', 'TYPOPW'],
};
const ALL = Object.values(SECRETS).flat();

const YAML = `
event.hook.FetchFail:
  if: {type: CustomEvent, subtype: fetchfail}
  then:
    - action: variable.set
      args: {seen_url: "\${args.url}", seen_token: "\${args.session}"}
    - action: http.get
      args: {url: "\${args.url}"}
`;

// Answers /go with a redirect to a URL carrying credentials, /final with credentials in its JSON
// (and the request's headers), /fail with a 401 whose body holds some.
async function upstream(): Promise<{ server: Server; url: string; seen: string[] }> {
  const seen: string[] = [];
  const server = createServer((req, res) => {
    seen.push(req.url ?? '');
    const path = (req.url ?? '').split('?')[0];
    const json = (status: number, value: unknown) =>
      res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(value));
    if (path === '/go')
      return res
        .writeHead(302, { location: '/final?access_token=QACCESS&api_key=QAPIKEY&page=2' })
        .end();
    if (path === '/final')
      return json(200, {
        user: 'ada',
        id_token: 'ANSIDTOK',
        session: 'ANSSESSION',
        jwt: 'ANSJWT',
        data: { note: 'Bearer DATABEARER12345', blob: JWT, count: 3 },
        received: req.headers,
      });
    return json(401, { error: 'bad', id_token: 'FAILIDTOK', session: 'FAILSESS', jwt: 'FAILJWT' });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen };
}

describe('credentials in the run history, the log, /ws/events and /metrics', () => {
  let t: TestApp;
  let token: string;
  let up: Awaited<ReturnType<typeof upstream>>;
  let ws: Client;
  let lines: Array<Record<string, unknown>>;

  beforeAll(async () => {
    up = await upstream();
    const captured = captureLog('debug');
    lines = captured.lines;
    t = await makeApp(YAML, { log: captured.log });
    token = await registerAndToken(t.app);
    ws = await connect(`${await listen(t.app)}/ws/events`, bearer(token));
  });
  afterAll(async () => {
    await closeAll();
    await t.close();
    up.server.closeAllConnections();
    up.server.close();
  });

  const history = async (): Promise<StoredRunDetail[]> => {
    const { output } = await call(t, 'runs.list', { include_steps: true, limit: 500 });
    const runs = (output as { runs: { id: string }[] }).runs;
    return Promise.all(
      runs.map(async ({ id }) => (await call(t, 'runs.get', { id })).output as StoredRunDetail),
    );
  };
  const leaks = (text: string, secrets: string[]) => secrets.filter((s) => text.includes(s));

  it('an answer after a redirect: query values, headers, answer fields and data are masked', async () => {
    const res = await call(t, 'http.get', {
      url: `${up.url}/go?apitoken=QAPITOK&page=1`,
      headers: { 'X-Auth-Token': 'HXAUTH', 'Private-Token': 'HPRIV', Accept: 'application/json' },
      auth: { bearer: 'AUTHBEARER1' },
    });
    expect(res.errors).toEqual([]);
    // The call itself sent and got the real values.
    expect(up.seen).toContain('/go?apitoken=QAPITOK&page=1');
    const body = (res.output as { body: { received: Record<string, string> } }).body;
    expect(body.received['x-auth-token']).toBe('HXAUTH');

    const run = (await history()).find((r) => r.name === 'http.get' && r.outcome === 'ok')!;
    expect(run.args).toMatchObject({
      url: `${up.url}/go?apitoken=[redacted]&page=1`,
      headers: {
        'X-Auth-Token': '[redacted]',
        'Private-Token': '[redacted]',
        Accept: 'application/json',
      },
      auth: '[redacted]',
    });
    const output = run.output as { url: string; body: Record<string, unknown> };
    expect(output.url).toBe(`${up.url}/final?access_token=[redacted]&api_key=[redacted]&page=2`);
    expect(output.body).toMatchObject({
      user: 'ada',
      id_token: '[redacted]',
      session: '[redacted]',
      jwt: '[redacted]',
      data: { note: 'Bearer [redacted]', blob: '[redacted]', count: 3 },
      received: { 'x-auth-token': '[redacted]', 'private-token': '[redacted]' },
    });
    const kept = JSON.stringify(run);
    expect(leaks(kept, [...SECRETS.query, ...SECRETS.headers, ...SECRETS.answer])).toEqual([]);
  });

  it("a hook's failing call: the listener gets the real values; errors are masked everywhere", async () => {
    const url = `${up.url}/fail?apitoken=FAILAPITOK&access_token=FAILACCESS&q=1`;
    await t.service.events.emit('CustomEvent', {
      subtype: 'fetchfail',
      args: { url, session: 'EVSESSION' },
    });
    const failed: Frame = await ws.next(
      (f: Frame) => f.type === 'event' && f.args.type === CoreKinds.RunFailedEvent,
    );
    await t.service.events.idle();
    // The hook's steps saw and sent the real values.
    expect(up.seen).toContain('/fail?apitoken=FAILAPITOK&access_token=FAILACCESS&q=1');
    expect((await call(t, 'variable.get', { name: 'seen_url' })).output).toMatchObject({
      seen_url: url,
    });
    expect((await call(t, 'variable.get', { name: 'seen_token' })).output).toMatchObject({
      seen_token: 'EVSESSION',
    });
    // Subscribers got the event that started it, and the failure, masked.
    const custom: Frame = await ws.next(
      (f: Frame) => f.type === 'event' && f.args.subtype === 'fetchfail',
    );
    expect(custom.args.args).toEqual({
      url: `${up.url}/fail?apitoken=[redacted]&access_token=[redacted]&q=1`,
      session: '[redacted]',
    });
    expect(failed.args.errors[0]).toMatch(
      /^event\.hook\.FetchFail then step 2 \(http\.get\) failed: http\.get: GET http:\/\/127\.0\.0\.1:\d+\/fail\?apitoken=\[redacted\]&access_token=\[redacted\]&q=1 answered 401 Unauthorized: \{"error":"bad","id_token":"\[redacted\]"/,
    );
    expect(leaks(JSON.stringify(ws.frames), ALL)).toEqual([]);

    const runs = await history();
    const hookRun = runs.find((r) => r.name === 'FetchFail')!;
    expect(hookRun.outcome).toBe('failed');
    expect(leaks(JSON.stringify(runs), ALL)).toEqual([]);
  });

  it('http auth fields are masked even when the action is not known', async () => {
    const res = await call(t, 'http.gett', {
      url: `${up.url}/final`,
      auth: ['ada', 'TYPOAUTHPW'],
      password: 'TYPOPW',
    });
    expect(res.code).toBe('NOT_FOUND');
    const run = (await history()).find((r) => r.name === 'http.gett')!;
    expect(run.args).toMatchObject({ auth: '[redacted]', password: '[redacted]' });
  });

  it('nothing of it reaches the log or /metrics', async () => {
    expect(lines.length).toBeGreaterThan(0);
    // The failing call was logged, with its (masked) message.
    expect(JSON.stringify(lines)).toMatch(/apitoken=\[redacted\]/);
    expect(leaks(JSON.stringify(lines), ALL)).toEqual([]);
    const metrics = await t.app.inject({ method: 'GET', url: '/metrics', ...bearer(token) });
    expect(metrics.statusCode).toBe(200);
    expect(metrics.body).toContain('http.get');
    expect(leaks(metrics.body, ALL)).toEqual([]);
  });
});
