// A token in a query string never reaches the log in clear, however the
// parameter name is encoded.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { redactUrl } from '../../src/http/log.ts';
import { captureLog } from '../helpers/service.ts';
import { closeAll, connect } from './ws-client.ts';
import { listening } from '../helpers/listening.ts';
import type { Listening } from '../helpers/listening.ts';

// Access lines are written at debug.
const { log, lines } = captureLog('debug');
let s: Listening;
beforeAll(async () => {
  s = await listening({ log });
});
afterAll(() => s.close());
afterEach(() => closeAll());

describe('tokens in query strings', () => {
  it.each([['%74oken='], ['tok%65n='], ['token%3D'], ['x=1;token='], ['TOKEN=']])(
    'redactUrl judges the decoded name: ?%s',
    (prefix) => {
      const url = `/ws/events?${prefix}eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJhIn0.c2ln`;
      const redacted = redactUrl(url);
      expect(redacted).not.toContain('eyJ');
      expect(redacted).toMatch(/token=\[redacted\]/);
    },
  );

  it('a JWT under any other name, or in the path, is replaced too', () => {
    const jwt = 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJhIn0.c2ln';
    expect(redactUrl(`/ws/events?%2574oken=${jwt}&x=1`)).toBe('/ws/events?[redacted]&x=1');
    expect(redactUrl(`/hook/${jwt}`)).toBe('/hook/[redacted]');
    expect(redactUrl('/ws/events?kind=CustomEvent')).toBe('/ws/events?kind=CustomEvent');
  });

  it.each([['%74oken'], ['tok%65n'], ['token']])(
    'a WebSocket authenticated with ?%s=<JWT> leaves no JWT in the access log',
    async (name) => {
      const c = await connect(`${s.ws}/ws/events?${name}=${s.token}`);
      c.send({ type: 'subscribe', events: [] });
      expect((await c.next()).type).toBe('subscribed');
      c.ws.close();
      await c.closed;
      const logged = JSON.stringify(lines);
      expect(logged).toContain('/ws/events?');
      expect(logged).not.toContain(s.token.split('.')[2]);
    },
  );
});
