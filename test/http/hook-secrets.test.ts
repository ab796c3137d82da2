// A web hook's credentials (query, body, headers) reach its listener, and only masked copies reach
// /ws/events subscribers and the bus that a cluster's stream is fed from.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PipitEvent } from '../../src/events/event.ts';
import { makeEvent } from '../../src/events/event.ts';
import { CoreKinds } from '../../src/events/kinds.ts';
import { redactWebhookEvent } from '../../src/http/routes/hook.ts';
import { makeApp, registerAndToken } from '../helpers/service.ts';
import type { TestApp } from '../helpers/service.ts';
import { bearer, closeAll, connect, listen } from './ws-client.ts';
import type { Frame } from './ws-client.ts';

const YAML = `
event.hook.GitLab:
  if: {type: WebhookEvent, hook: gitlab}
  then:
    - if \${headers['x-gitlab-token'] != 'GLTOKEN-1'}:
        - action: hook.send_response
          args: {body: Unauthorized, status: 401}
    - return:
        token: \${args.token}
        password: \${data.password}
        gitlab: \${headers['x-gitlab-token']}
        signature: \${headers['x-hub-signature-256']}
`;

const SECRETS = ['QTOKEN-1', 'BODYPW-1', 'GLTOKEN-1', 'HUBSIG-1'];

describe('web hook credentials', () => {
  let t: TestApp;
  let token: string;
  let base: string;
  beforeAll(async () => {
    t = await makeApp(YAML);
    token = await registerAndToken(t.app);
    base = await listen(t.app);
  });
  afterAll(async () => {
    await closeAll();
    await t.close();
  });

  it('the listener gets the real values; /ws/events subscribers and the bus get them masked', async () => {
    const ws = await connect(`${base}/ws/events`, bearer(token));
    const published: PipitEvent[] = [];
    const off = t.service.events.bus.subscribe(({ event }) => {
      if (event.args.type === CoreKinds.WebhookEvent) published.push(event);
    });
    let res: Response;
    try {
      res = await fetch(`${base.replace(/^ws/, 'http')}/hook/gitlab?token=QTOKEN-1&page=2`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'x-gitlab-token': 'GLTOKEN-1',
          'x-hub-signature-256': 'sha256=HUBSIG-1',
          'x-request-id': 'kept-1',
        },
        body: JSON.stringify({ password: 'BODYPW-1', note: 'kept-2' }),
      });
    } finally {
      off();
    }
    // The listener saw every real value (its condition compared the real token, too).
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({
      token: 'QTOKEN-1',
      password: 'BODYPW-1',
      gitlab: 'GLTOKEN-1',
      signature: 'sha256=HUBSIG-1',
    });

    const frame: Frame = await ws.next(
      (f: Frame) => f.type === 'event' && f.args.type === CoreKinds.WebhookEvent,
    );
    const raw = JSON.stringify(frame);
    for (const secret of SECRETS) expect(raw, secret).not.toContain(secret);
    expect(frame.args.args).toEqual({ token: '[redacted]', page: '2' });
    expect(frame.args.data).toEqual({ password: '[redacted]', note: 'kept-2' });
    expect(frame.args.headers).toMatchObject({
      'x-gitlab-token': '[redacted]',
      'x-hub-signature-256': '[redacted]',
      'x-request-id': 'kept-1',
    });

    // What the bus was given is what a cluster's stream gets (RedisBus.publish writes it as is).
    expect(published).toHaveLength(1);
    const wire = JSON.stringify(published[0]);
    for (const secret of SECRETS) expect(wire, secret).not.toContain(secret);
  });

  it('masks by name (any case, - and _ alike) and by shape, and copies nothing when clean', () => {
    const event = makeEvent(
      CoreKinds.WebhookEvent,
      {
        hook: 'h',
        method: 'POST',
        args: { Private_Token: 'P1', access_token: 'A1', id: '5' },
        data: { session: 'S1', text: 'auth is Bearer B1234567890', nested: { jwt: 'J1' } },
        headers: { 'x-auth-token': 'X1', authorization: 'Basic YWRhOnB3', host: 'pi' },
      },
      'pi',
    );
    const shown = redactWebhookEvent(event);
    expect(shown.args).toMatchObject({
      args: { Private_Token: '[redacted]', access_token: '[redacted]', id: '5' },
      data: {
        session: '[redacted]',
        text: 'auth is Bearer [redacted]',
        nested: { jwt: '[redacted]' },
      },
      headers: { 'x-auth-token': '[redacted]', authorization: '[redacted]', host: 'pi' },
    });
    // The listener's event is untouched.
    expect((event.args.args as Record<string, string>).Private_Token).toBe('P1');
    const clean = makeEvent(
      CoreKinds.WebhookEvent,
      { hook: 'h', method: 'GET', args: { id: '5' }, data: null, headers: { host: 'pi' } },
      'pi',
    );
    expect(redactWebhookEvent(clean)).toBe(clean);
  });
});
