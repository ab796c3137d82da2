import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Delivery } from '../../src/events/bus.ts';
import { makeEvent } from '../../src/events/event.ts';
import { CoreKinds } from '../../src/events/kinds.ts';
import { captureLog, makeApp, tempDir } from '../helpers/service.ts';
import type { TestApp } from '../helpers/service.ts';

// The token-checking web hook, as a script and as YAML: check X-Token, 401 with a short text when
// wrong.
const SCRIPT = `import { hook } from 'pipit';
hook('WebhookEvent', { hook: 'door' }, (event) => {
  if (event.headers['x-token'] !== 'hook-secret') return event.sendResponse('Unauthorized', 401);
  return { opened: true, method: event.method, args: event.args, data: event.data };
});
hook('WebhookEvent', { hook: 'text' }, () => 'plain words');
hook('WebhookEvent', { hook: 'headers' }, (e) => e.send_response({ made: true }, 201, { 'x-made-by': 'pipit' }));
hook('WebhookEvent', { hook: 'nothing' }, () => undefined);
hook('WebhookEvent', { hook: 'broken' }, () => { throw new Error('secret internals /etc/passwd'); });
let release;
hook('WebhookEvent', { hook: 'slow' }, () => new Promise((resolve) => { release = resolve; }));
hook('WebhookEvent', { hook: 'release' }, () => { release?.('late'); return 'released'; });
`;

const YAML = `
backend.http:
  port: 0
  bind_address: 127.0.0.1
  hook_timeout_seconds: 0.5
scripts_dir: ./scripts
event.hook.YamlDoor:
  if:
    type: WebhookEvent
    hook: yamldoor
  then:
    - if \${headers['x-token'] != 'hook-secret'}:
        - action: hook.send_response
          args:
            body: Unauthorized
            status: 401
    - return:
        opened: true
        who: \${data.who}
event.hook.BadStatus:
  if: {type: WebhookEvent, hook: badstatus}
  then:
    - action: hook.send_response
      args: {body: nope, status: 999}
event.hook.AnswerFirst:
  if: {type: WebhookEvent, hook: answerfirst}
  then:
    - action: hook.send_response
      args: {body: accepted, status: 202}
    - action: utils.sleep
      args: {seconds: 0.05}
    - action: variable.set
      args: {after_answer: done}
event.hook.QueryArgs:
  if: {type: WebhookEvent, hook: query, args: {id: '5'}}
  then:
    - return:
        keys: \${keys(args)}
        has_id: \${'id' in args}
        id: \${args.get('id')}
event.hook.NotAWebhook:
  if: {type: CustomEvent, subtype: respond}
  then:
    - action: hook.send_response
      args: {body: nope}
`;

describe('/hook/<name>', () => {
  let t: TestApp;
  let cleanup: () => void;

  beforeAll(async () => {
    const tmp = tempDir();
    cleanup = tmp.cleanup;
    mkdirSync(join(tmp.dir, 'scripts'));
    writeFileSync(join(tmp.dir, 'scripts', 'hooks.mjs'), SCRIPT);
    t = await makeApp(YAML.replace(/^backend\.http:[\s\S]*?hook_timeout_seconds: 0\.5\n/m, ''), {
      dir: tmp.dir,
      http: { hook_timeout_seconds: 0.5 },
    });
  });
  afterAll(async () => {
    await t.close();
    cleanup();
  });

  it('answers 401 with a short text when the script hook check fails, JSON otherwise', async () => {
    const bad = await t.app.inject({
      method: 'GET',
      url: '/hook/door',
      headers: { 'x-token': 'wrong' },
    });
    expect(bad.statusCode).toBe(401);
    expect(bad.headers['content-type']).toMatch(/text\/plain/);
    expect(bad.body).toBe('Unauthorized');
    const good = await t.app.inject({
      method: 'GET',
      url: '/hook/door?room=hall&tag=a&tag=b',
      headers: { 'x-token': 'hook-secret' },
    });
    expect(good.statusCode).toBe(200);
    expect(good.json()).toEqual({
      opened: true,
      method: 'GET',
      args: { room: 'hall', tag: ['a', 'b'] },
      data: null,
    });
  });

  it('gives a YAML hook the query string as a dict, for its condition and its expressions', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/hook/query?id=5&x=1' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ keys: ['id', 'x'], has_id: true, id: '5' });
    const other = await t.app.inject({ method: 'GET', url: '/hook/query?id=6' });
    expect(other.statusCode).toBe(404);
  });

  it('answers the same way from a YAML hook (send_response step, return value)', async () => {
    const bad = await t.app.inject({
      method: 'POST',
      url: '/hook/yamldoor',
      payload: { who: 'ada' },
    });
    expect(bad.statusCode).toBe(401);
    expect(bad.body).toBe('Unauthorized');
    const good = await t.app.inject({
      method: 'POST',
      url: '/hook/yamldoor',
      headers: { 'x-token': 'hook-secret' },
      payload: { who: 'ada' },
    });
    expect(good.statusCode).toBe(200);
    expect(good.json()).toEqual({ opened: true, who: 'ada' });
  });

  it.each(['POST', 'PUT', 'PATCH', 'DELETE'] as const)(
    'accepts %s with a JSON body',
    async (method) => {
      const res = await t.app.inject({
        method,
        url: '/hook/door',
        headers: { 'x-token': 'hook-secret' },
        payload: { n: 1 },
      });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toMatchObject({ method, data: { n: 1 } });
    },
  );

  it('lets a listener that answered early finish its work once the answer is sent', async () => {
    const url = await t.app.listen({ port: 0, host: '127.0.0.1' });
    const res = await fetch(`${url}/hook/answerfirst`, { method: 'POST' });
    expect(res.status).toBe(202);
    expect(await res.text()).toBe('accepted');
    expect(t.service.store.variables.get('after_answer')).toBeUndefined();
    await expect.poll(() => t.service.store.variables.get('after_answer')).toBe('done');
  });

  it('parses form bodies (repeated keys kept) and passes other bodies as text', async () => {
    const form = await t.app.inject({
      method: 'POST',
      url: '/hook/door',
      headers: { 'x-token': 'hook-secret', 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'a=1&b=x&b=y',
    });
    expect(form.json().data).toEqual({ a: '1', b: ['x', 'y'] });
    const text = await t.app.inject({
      method: 'POST',
      url: '/hook/door',
      headers: { 'x-token': 'hook-secret', 'content-type': 'text/plain' },
      payload: '${process.exit()}',
    });
    expect(text.json().data).toBe('${process.exit()}');
  });

  it('answers strings as text, explicit status and headers, and no value as 204', async () => {
    const text = await t.app.inject({ method: 'GET', url: '/hook/text' });
    expect(text.body).toBe('plain words');
    const made = await t.app.inject({ method: 'GET', url: '/hook/headers' });
    expect(made.statusCode).toBe(201);
    expect(made.headers['x-made-by']).toBe('pipit');
    expect(made.json()).toEqual({ made: true });
    const nothing = await t.app.inject({ method: 'GET', url: '/hook/nothing' });
    expect(nothing.statusCode).toBe(204);
  });

  it('answers 404 without a listener, 500 without internals when it throws, 504 when it is too slow', async () => {
    const none = await t.app.inject({ method: 'GET', url: '/hook/unknown' });
    expect(none.statusCode).toBe(404);
    expect(none.json().response.errors[0]).toMatch(/no listener is registered for hook "unknown"/);
    const broken = await t.app.inject({ method: 'GET', url: '/hook/broken' });
    expect(broken.statusCode).toBe(500);
    expect(broken.body).not.toContain('passwd');
    const slow = await t.app.inject({ method: 'GET', url: '/hook/slow' });
    expect(slow.statusCode).toBe(504);
    expect(slow.json().response.errors[0]).toMatch(/did not answer within 0.5 s/);
    await t.app.inject({ method: 'GET', url: '/hook/release' });
  });

  it('refuses oversized bodies with 413 and bad names with 400', async () => {
    const big = await t.app.inject({
      method: 'POST',
      url: '/hook/door',
      headers: { 'content-type': 'text/plain' },
      payload: 'x'.repeat(1_100_000),
    });
    expect(big.statusCode).toBe(413);
    const bad = await t.app.inject({ method: 'GET', url: `/hook/${'a'.repeat(200)}` });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().response.errors[0]).toMatch(/"a{40}…" is not a hook name: use 1 to 128/);
  });

  it('shows the event to subscribers with credentials redacted, and hooks still get them', async () => {
    const seen: Delivery[] = [];
    const off = t.service.events.subscribe((d) => seen.push(d));
    try {
      const res = await t.app.inject({
        method: 'GET',
        url: '/hook/door',
        headers: {
          'x-token': 'hook-secret',
          authorization: 'Bearer abc',
          cookie: 'pipit_session=xyz',
          'x-other': 'kept',
        },
      });
      expect(res.statusCode).toBe(200);
    } finally {
      off();
    }
    const event = seen.find((d) => d.event.args.type.endsWith('WebhookEvent'))!.event;
    const headers = event.args.headers as Record<string, string>;
    expect(headers['x-token']).toBe('[redacted]');
    expect(headers.authorization).toBe('[redacted]');
    expect(headers.cookie).toBe('[redacted]');
    expect(headers['x-other']).toBe('kept');
    expect(event.args.hook).toBe('door');
  });

  it('refuses a send_response with an impossible status (500 to the client, the reason named), and outside a web hook', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/hook/badstatus' });
    expect(res.statusCode).toBe(500);
    expect(res.json().response.errors[0]).toMatch(/listener of hook "badstatus" failed/);

    const hooks = t.service.events.hooks;
    const signal = new AbortController().signal;
    const bad = await hooks.runOne(
      hooks.list().find((h) => h.name === 'BadStatus')!,
      makeEvent(CoreKinds.WebhookEvent, { hook: 'badstatus', headers: {} }, 'test-host'),
      { signal, respond: () => undefined },
    );
    expect(bad.ok).toBe(false);
    expect(String((bad as { error: Error }).error.message)).toMatch(
      /"status" must be an HTTP status from 100 to 599; got 999/,
    );

    const outside = await hooks.runOne(
      hooks.list().find((h) => h.name === 'NotAWebhook')!,
      makeEvent(CoreKinds.CustomEvent, { subtype: 'respond' }, 'test-host'),
      { signal },
    );
    expect(outside.ok).toBe(false);
    expect(String((outside as { error: Error }).error.message)).toMatch(
      /only works in a hook on a WebhookEvent/,
    );
  });
});

describe('/hook/<name> when the caller hangs up', () => {
  it('gives a listener that asks for its signal only after the hang-up an aborted one', async () => {
    const t = await makeApp('');
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    let started!: () => void;
    const running = new Promise<void>((r) => (started = r));
    let seen: { aborted: boolean; reason: unknown } | undefined;
    t.service.events.hooks.add({
      name: 'late-signal',
      source: 'test',
      matches: (args) => args.hook === 'late',
      run: async (_event, ctx) => {
        started();
        await gate;
        seen = { aborted: ctx.signal.aborted, reason: ctx.signal.reason };
        return 'done';
      },
    });
    try {
      const url = await t.app.listen({ port: 0, host: '127.0.0.1' });
      const caller = new AbortController();
      const call = fetch(`${url}/hook/late`, { signal: caller.signal });
      await running;
      caller.abort();
      await expect(call).rejects.toThrow(/abort/i);
      // The server sees the connection close on a later turn: wait for it, then let the run go on.
      const open = () => new Promise<number>((r) => t.app.server.getConnections((_err, n) => r(n)));
      await expect.poll(open).toBe(0);
      release();
      await expect.poll(() => seen).toBeDefined();
      expect(seen!.aborted).toBe(true);
      expect(String((seen!.reason as Error).message)).toMatch(/closed the connection/);
    } finally {
      await t.close();
    }
  });

  it('aborts the listeners that have not answered yet', async () => {
    const { log, lines } = captureLog('warn');
    const t = await makeApp(
      `event.hook.HangUp:
  if: {type: WebhookEvent, hook: hangup}
  then:
    - action: variable.set
      args: {hangup: started}
    - action: utils.sleep
      args: {seconds: 30}
`,
      { log },
    );
    try {
      const url = await t.app.listen({ port: 0, host: '127.0.0.1' });
      const caller = new AbortController();
      const call = fetch(`${url}/hook/hangup`, { method: 'POST', signal: caller.signal });
      await expect.poll(() => t.service.store.variables.get('hangup')).toBe('started');
      caller.abort();
      await expect(call).rejects.toThrow(/abort/i);
      await expect
        .poll(() => lines.find((l) => String(l.msg).includes('HangUp')))
        .toMatchObject({ msg: expect.stringMatching(/failed: the client closed the connection/) });
    } finally {
      await t.close();
    }
  });
});
