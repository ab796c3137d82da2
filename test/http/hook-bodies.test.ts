// A web hook whose listener awaits an action answers every method and body type
// (the request's "close" after the body is read is not a hang-up).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listening } from '../helpers/listening.ts';
import type { Listening } from '../helpers/listening.ts';

const SCRIPT = `import { hook, run } from 'pipit';
hook('WebhookEvent', { hook: 'script' }, async (e) => {
  await run('utils.sleep', { seconds: 0.05 });
  return { method: e.method, data: e.data };
});
`;
const YAML = `event.hook.Yaml:
  if: {type: WebhookEvent, hook: yaml}
  then:
    - action: utils.sleep
      args: {seconds: 0.05}
    - return:
        method: \${method}
        data: \${data}
`;

let s: Listening;
beforeAll(async () => {
  s = await listening({ scripts: { 'hooks.mjs': SCRIPT }, yaml: YAML });
});
afterAll(() => s.close());

const BODIES: Array<[string, string | undefined, unknown]> = [
  ['application/json', '{"door":"front"}', { door: 'front' }],
  ['application/x-www-form-urlencoded', 'door=front&n=2', { door: 'front', n: '2' }],
  ['text/plain', 'open the door', 'open the door'],
  ['application/octet-stream', 'raw bytes', 'raw bytes'],
];

describe('web hooks whose listener awaits an action', () => {
  for (const hookName of ['script', 'yaml']) {
    for (const method of ['POST', 'PUT', 'PATCH', 'DELETE']) {
      it.each(BODIES)(`${hookName} hook, ${method} with %s`, async (type, body, parsed) => {
        const res = await fetch(`${s.http}/hook/${hookName}`, {
          method,
          headers: { 'content-type': type },
          body,
        });
        expect(res.status).toBe(200);
        expect(await res.json()).toEqual({ method, data: parsed });
      });
    }
    it(`${hookName} hook, GET without a body`, async () => {
      const res = await fetch(`${s.http}/hook/${hookName}?x=1`);
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual({ method: 'GET', data: null });
    });
  }
});
