import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeApp } from '../../helpers/service.ts';
import type { TestApp } from '../../helpers/service.ts';
import { call } from '../call.ts';

// The Platypush-style cron of docs/plugins/system.md runs in Pipit: mem_virtual's keys are
// variables of the next steps. The test takes the page's YAML and only lowers the threshold (so the
// alert fires) and swaps the notifier for variable.set (so the message can be read back).

const page = readFileSync(new URL('../../../docs/plugins/system.md', import.meta.url), 'utf8');
const example = /## Example[\s\S]*?```yaml\n([\s\S]*?)```/.exec(page)![1]!;

let t: TestApp;
beforeAll(async () => {
  const yaml = example
    .replace('${percent > 90}', '${percent >= 0}')
    .replace('action: ntfy.send_message', 'action: variable.set')
    .replace(/args:\n(\s+)topic: .*\n\s+title: .*\n\s+message:/, 'args:\n$1mem_alert:');
  expect(yaml).toContain('mem_alert:');
  t = await makeApp(yaml);
});
afterAll(async () => {
  await t?.close();
});

describe('the system docs example', () => {
  it('alerts with the memory percentage and the MiB available', async () => {
    const res = await call(t, 'automations.test', { name: 'cron.MemoryWatch' });
    expect(res.errors).toEqual([]);
    const stored = (await call(t, 'variable.get', { name: 'mem_alert' })).output as Record<
      string,
      string
    >;
    const m = /^Memory use is (\d+(?:\.\d)?)% \((\d+) MiB available\)$/.exec(stored.mem_alert!);
    expect(m, stored.mem_alert).not.toBeNull();
    expect(Number(m![1])).toBeGreaterThan(0);
    expect(Number(m![1])).toBeLessThanOrEqual(100);
    expect(Number(m![2])).toBeGreaterThan(0);
  });
});
