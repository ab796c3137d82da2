// One documented depth limit at every JSON entry point, 400 naming it.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  jsonTextTooDeep,
  jsonValueProblem,
  MAX_JSON_DEPTH,
  toJsonLimited,
} from '../../src/core/json-limits.ts';
import { closeAll, connect } from '../http/ws-client.ts';
import { listening, nestedJson, nestedValue } from '../helpers/listening.ts';
import type { Listening } from '../helpers/listening.ts';

const SCRIPT = `import { procedure, hook, run } from 'pipit';
procedure('store_deep', async () => { let v = 1; for (let i = 0; i < 500; i++) v = { a: v }; return run('variable.set', { deep: v }); });
procedure('fire_deep', async () => { let v = 1; for (let i = 0; i < 500; i++) v = [v]; return run('event.fire', { subtype: 'deep', args: { v } }); });
hook('WebhookEvent', { hook: 'echo' }, (e) => ({ got: e.data }));
`;

let s: Listening;
beforeAll(async () => {
  s = await listening({ scripts: { 'deep.mjs': SCRIPT } });
});
afterAll(() => s.close());
afterEach(() => closeAll());

const LIMIT = new RegExp(`deeper than ${MAX_JSON_DEPTH} levels`);

describe('json-limits', () => {
  it('measures text depth outside strings only', () => {
    expect(jsonTextTooDeep(nestedJson(MAX_JSON_DEPTH))).toBe(false);
    expect(jsonTextTooDeep(nestedJson(MAX_JSON_DEPTH + 1))).toBe(true);
    expect(jsonTextTooDeep(`{"s":"${'['.repeat(5000)}"}`)).toBe(false);
    expect(jsonTextTooDeep(`{"s":"\\\\"}${'['.repeat(200)}`)).toBe(true);
    expect(jsonTextTooDeep(`{"s":"\\"${'['.repeat(200)}"}`)).toBe(false);
  });

  it('judges values without recursion: depth, cycles, BigInt; shared objects are fine', () => {
    expect(jsonValueProblem(nestedValue(MAX_JSON_DEPTH))).toBeUndefined();
    expect(jsonValueProblem(nestedValue(100_000))).toMatch(LIMIT);
    const shared = { x: 1 };
    expect(jsonValueProblem({ a: shared, b: [shared, shared] })).toBeUndefined();
    const loop: Record<string, unknown> = {};
    loop.inner = { back: loop };
    expect(jsonValueProblem(loop)).toMatch(/circular \(at "inner.back"\)/);
    expect(jsonValueProblem([1, { big: 2n }])).toMatch(/BigInt \(at "1.big"\)/);
    expect(jsonValueProblem({ when: new Date(0) })).toBeUndefined();
    expect(() => toJsonLimited(loop, 'the value', 'INVALID_ARGUMENTS')).toThrow(
      /the value cannot be stored or sent as JSON: it is circular/,
    );
  });
});

describe('deep JSON at the entry points', () => {
  it('POST /execute: 400 naming the limit (not 500)', async () => {
    const res = await fetch(`${s.http}/execute`, {
      method: 'POST',
      headers: { ...s.auth, 'content-type': 'application/json' },
      body: `{"type":"request","action":"utils.echo","args":${nestedJson(5000)}}`,
    });
    expect(res.status).toBe(400);
    const body = (await res.json()) as { type: string; response: { errors: string[] } };
    expect(body.type).toBe('response');
    expect(body.response.errors[0]).toMatch(/^the request body nests deeper than 128 levels/);
  });

  it('variable.set over HTTP: 400, nothing stored, no stack overflow message', async () => {
    const res = await fetch(`${s.http}/execute`, {
      method: 'POST',
      headers: { ...s.auth, 'content-type': 'application/json' },
      body: `{"type":"request","action":"variable.set","args":{"v":${nestedJson(3000)}}}`,
    });
    expect(res.status).toBe(400);
    expect(await res.text()).not.toMatch(/call stack/i);
    expect(s.t.service.store.variables.get('v')).toBeUndefined();
  });

  it('a value stored from a script: the action fails naming the variable, nothing stored', async () => {
    const { message } = await s.t.service.execute(
      { type: 'request', action: 'procedure.store_deep' },
      { transport: 'cli' },
    );
    expect(message.response.errors[0]).toMatch(/the value of variable "deep" cannot be stored/);
    expect(message.response.errors[0]).toMatch(LIMIT);
    expect(s.t.service.store.variables.get('deep')).toBeUndefined();
  });

  it('an event published from a script: refused, not silently lost', async () => {
    const seen: unknown[] = [];
    const off = s.t.service.events.subscribe((d) => seen.push(d.event));
    const { message } = await s.t.service.execute(
      { type: 'request', action: 'procedure.fire_deep' },
      { transport: 'cli' },
    );
    off();
    expect(message.response.errors[0]).toMatch(/the event .*CustomEvent cannot be stored or sent/);
    expect(seen).toEqual([]);
  });

  it('/ws/requests and /ws/events frames: error answers naming the limit', async () => {
    const req = await connect(`${s.ws}/ws/requests`, { headers: s.auth });
    req.ws.send(`{"type":"requests","action":"utils.echo","args":${nestedJson(200)}}`);
    expect((await req.next()).response.errors[0]).toMatch(/^the frame nests deeper than 128/);
    const ev = await connect(`${s.ws}/ws/events`, { headers: s.auth });
    ev.ws.send(`{"type":"event","args":{"type":"CustomEvent","args":${nestedJson(200)}}}`);
    const frame = await ev.next((f) => f.type === 'error');
    expect(frame.errors[0]).toMatch(/^the frame nests deeper than 128/);
  });

  it('/hook/<name> JSON bodies: 400 naming the limit; shallow ones reach the listener', async () => {
    const deep = await fetch(`${s.http}/hook/echo`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: nestedJson(1000),
    });
    expect(deep.status).toBe(400);
    expect(((await deep.json()) as { response: { errors: string[] } }).response.errors[0]).toMatch(
      LIMIT,
    );
    const ok = await fetch(`${s.http}/hook/echo`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: nestedJson(3),
    });
    expect(ok.status).toBe(200);
    expect(await ok.json()).toEqual({ got: { a: { a: { a: 1 } } } });
  });
});
