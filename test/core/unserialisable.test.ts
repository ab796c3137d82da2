// Outputs that cannot be JSON (BigInt, circular, thousands of levels deep) are the
// action's failure on every transport, and the service keeps running.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { closeAll, connect } from '../http/ws-client.ts';
import { listening, nestedJson } from '../helpers/listening.ts';
import type { Listening } from '../helpers/listening.ts';

const SCRIPT = `import { procedure } from 'pipit';
procedure('big', () => ({ n: 10n }));
procedure('loop', () => { const o = { name: 'me' }; o.self = o; return o; });
procedure('deep', () => { let v = 1; for (let i = 0; i < 20000; i++) v = [v]; return v; });
procedure('shared', () => { const s = { x: 1 }; return { a: s, b: s }; });
`;

let s: Listening;
beforeAll(async () => {
  s = await listening({ scripts: { 'outputs.mjs': SCRIPT } });
});
afterAll(() => s.close());
afterEach(() => closeAll());

const post = (body: string) =>
  fetch(`${s.http}/execute`, {
    method: 'POST',
    headers: { ...s.auth, 'content-type': 'application/json' },
    body,
  });

describe('outputs that cannot be JSON', () => {
  it.each([
    ['big', /BigInt \(at "n"\)/],
    ['loop', /circular \(at "self"\)/],
    ['deep', /nests deeper than 128 levels/],
  ])('POST /execute procedure.%s answers 200 with the action failure named', async (name, why) => {
    const res = await post(
      JSON.stringify({ type: 'request', action: `procedure.${name}`, id: name }),
    );
    expect(res.status).toBe(200);
    const body = (await res.json()) as { id: string; response: { errors: string[] } };
    expect(body.id).toBe(name);
    expect(body.response.errors[0]).toMatch(/^the action's output cannot be sent as JSON: /);
    expect(body.response.errors[0]).toMatch(why);
  });

  it('answers each on /ws/requests and keeps the socket and the service up', async () => {
    const c = await connect(`${s.ws}/ws/requests`, { headers: s.auth });
    for (const name of ['big', 'loop', 'deep'])
      c.send({ type: 'requests', action: `procedure.${name}`, id: name });
    for (const name of ['big', 'loop', 'deep']) {
      const frame = await c.next((f) => f.id === name);
      expect(frame.response.errors[0]).toMatch(/cannot be sent as JSON/);
    }
    c.send({ type: 'requests', action: 'procedure.shared', id: 'ok' });
    const ok = await c.next((f) => f.id === 'ok');
    expect(ok.response).toEqual({ output: { a: { x: 1 }, b: { x: 1 } }, errors: [] });
  });

  it('a 6,000-level frame on /ws/requests is refused and the server stays up', async () => {
    const c = await connect(`${s.ws}/ws/requests`, { headers: s.auth });
    const args = nestedJson(6000);
    c.ws.send(`{"type":"requests","action":"utils.echo","id":"deep","args":${args}}`);
    const refused = await c.next();
    expect(refused.response.errors[0]).toMatch(/nests deeper than 128 levels/);
    c.send({ type: 'requests', action: 'utils.echo', args: { still: 'up' }, id: 'after' });
    expect((await c.next((f) => f.id === 'after')).response.output).toEqual({ still: 'up' });
    const res = await post('{"type":"request","action":"utils.echo","args":{"x":1}}');
    expect(res.status).toBe(200);
  });
});
