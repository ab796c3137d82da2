// `Config.get('key')` in a YAML procedure reads the running configuration, read-only and
// without credentials.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeApp } from '../helpers/service.ts';
import type { TestApp } from '../helpers/service.ts';

const YAML = `music.spotify:
  client_id: abc
  client_secret: shh
procedure.where:
  - return:
      device: \${Config.get('device_id')}
      port: \${Config.get('backend.http')['port']}
      spotify: \${Config.get('music.spotify')}
      missing: \${Config.get('nothing', 'fallback')}
`;

let t: TestApp;
beforeAll(async () => {
  t = await makeApp(YAML);
});
afterAll(() => t.close());

describe('Config.get in expressions', () => {
  it('reads settings and plugin sections, with credentials redacted', async () => {
    const { message } = await t.service.execute(
      { type: 'request', action: 'procedure.where' },
      { transport: 'cli' },
    );
    expect(message.response.errors).toEqual([]);
    const out = message.response.output as Record<string, unknown>;
    expect(out.device).toBe('test-host');
    expect(out.port).toBe(0);
    expect(out.missing).toBe('fallback');
    expect(out.spotify).toMatchObject({ client_id: 'abc', client_secret: '[redacted]' });
    expect(JSON.stringify(out)).not.toContain('shh');
  });
});
