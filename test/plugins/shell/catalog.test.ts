import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeApp } from '../../helpers/service.ts';
import type { TestApp } from '../../helpers/service.ts';

// The Execute tab builds its forms from the catalog: every parameter needs its help text.
describe('the host plugins in the catalog', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await makeApp('shell: {}\nfile: {}\n');
  });
  afterAll(() => t.close());

  it('lists every action of shell, file, http and mqtt with a summary and parameter help', () => {
    const catalog = t.service.registry.catalog();
    const names = (plugin: string) =>
      catalog.find((p) => p.name === plugin)!.actions.map((a) => a.name.slice(plugin.length + 1));
    expect(names('shell')).toEqual(['exec', 'jobs', 'kill']);
    expect(names('mqtt')).toEqual([
      'publish',
      'send_message',
      'status',
      'subscribe',
      'unsubscribe',
    ]);
    expect(names('file')).toHaveLength(18);
    expect(names('http')).toHaveLength(8);
    for (const plugin of catalog.filter((p) =>
      ['shell', 'file', 'http', 'mqtt'].includes(p.name),
    )) {
      for (const action of plugin.actions) {
        expect(action.summary, action.name).toBeTruthy();
        const props =
          (action.params as { properties?: Record<string, { description?: string }> }).properties ??
          {};
        for (const [name, schema] of Object.entries(props))
          expect(schema.description, `${action.name} ${name}`).toBeTruthy();
      }
    }
  });
});
