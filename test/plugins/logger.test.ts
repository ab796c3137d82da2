// The logger plugin takes any value and writes it as text, as Platypush's does: its sample web hook
// logs `msg: ${data}`, which is an object for a JSON body.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { captureLog, makeApp } from '../helpers/service.ts';
import type { TestApp } from '../helpers/service.ts';
import { call } from './call.ts';

const YAML = `event.hook.WebhookExample:
  if:
    type: platypush.message.event.http.hook.WebhookEvent
    hook: test-hook
    method: POST
  then:
    - if \${dict(headers).get('x-token', args.get('headers', {}).get('X-Token')) == 'SECRET'}:
      - action: logger.info
        args:
          msg: \${data}
`;

let t: TestApp;
let lines: Array<Record<string, unknown>>;
beforeAll(async () => {
  const captured = captureLog('info');
  lines = captured.lines;
  t = await makeApp(YAML, { log: captured.log });
});
afterAll(() => t.close());

const logged = () => lines.filter((l) => l.source === 'logger').map((l) => l.msg);

describe('logger', () => {
  it("Platypush's sample web hook logs a JSON body as text and answers 200", async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/hook/test-hook',
      headers: { 'x-token': 'SECRET', 'content-type': 'application/json' },
      payload: { temperature: 21.5, rooms: ['kitchen'], ok: true },
    });
    expect(res.statusCode).toBe(200);
    await t.service.events.idle();
    expect(logged()).toContain("{'temperature': 21.5, 'rooms': ['kitchen'], 'ok': True}");
  });

  it.each([
    [42, '42'],
    [null, 'None'],
    [[1, 'a'], "[1, 'a']"],
    ['plain text', 'plain text'],
  ])('logger.info takes %j and writes %s', async (msg, text) => {
    const { errors } = await call(t, 'logger.info', { msg });
    expect(errors).toEqual([]);
    expect(logged()).toContain(text);
  });

  it('cuts a very long value instead of refusing it', async () => {
    const { errors } = await call(t, 'logger.warning', { msg: 'x'.repeat(10_050) });
    expect(errors).toEqual([]);
    expect(logged().at(-1)).toBe(`${'x'.repeat(10_000)}… (50 more characters)`);
  });

  it('writes a value nested too deeply as a note instead of failing', async () => {
    let deep: unknown = 1;
    for (let i = 0; i < 150; i++) deep = [deep];
    const { errors } = await call(t, 'logger.info', { msg: deep });
    expect(errors).toEqual([]);
    expect(logged().at(-1)).toMatch(
      /^\(a value that cannot be written as text: value nested too deeply/,
    );
  });

  it('still needs a message', async () => {
    const { errors } = await call(t, 'logger.info', {});
    expect(errors.join()).toMatch(/msg/);
  });
});
