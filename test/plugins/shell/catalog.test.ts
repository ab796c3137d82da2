import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeApp } from '../../helpers/service.ts';
import type { TestApp } from '../../helpers/service.ts';

// The host plugins' actions, as the catalog lists them once their plugins are enabled. (Every
// parameter's help text is checked for all plugins in test/plugins/catalog.test.ts.)
describe('the host plugins in the catalog', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await makeApp('shell: {}\nfile: {}\n');
  });
  afterAll(() => t.close());

  it('lists every action of shell, file, http and mqtt', () => {
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
  });
});
