// Two listeners on one web hook: both run and one answers, which a configuration rarely means; it
// is said at load, naming both.
import { describe, expect, it } from 'vitest';
import { captureLog, makeApp } from '../helpers/service.ts';
import { configChecker } from '../helpers/config-check.ts';

const hook = (name: string, webhook: string, extra = '') =>
  `event.hook.${name}:\n  if:\n    type: platypush.message.event.http.hook.WebhookEvent\n    hook: ${webhook}\n${extra}  then:\n    - return: ${name}\n`;

const config = configChecker();

const check = (yaml: string) => config.check(yaml);

describe('two listeners on one web hook', () => {
  it('config check warns, naming both and who answers', () => {
    const warnings = check(
      hook('First', 'door') + hook('Second', 'door', '    method: POST\n') + hook('Other', 'bell'),
    );
    expect(warnings).toEqual([
      expect.stringMatching(
        /^web hook "door" has 2 listeners \(First in .*config\.yaml, Second in .*config\.yaml\): all of them run, and the caller gets the first explicit answer .*, else the first value returned, in load order/,
      ),
    ]);
  });

  it('one listener per web hook gives no warning', () => {
    expect(check(hook('First', 'door') + hook('Other', 'bell'))).toEqual([]);
  });

  it('a script listener on a YAML one is counted too, at start', async () => {
    const { log, lines } = captureLog('warn');
    const t = await makeApp(hook('Yaml', 'door'), {
      log,
      scripts: {
        'door.mjs':
          "import { hook } from 'pipit';\nhook('WebhookEvent', { hook: 'door' }, () => 'script');\n",
      },
    });
    try {
      expect(lines.map((l) => l.msg).join('\n')).toMatch(
        /web hook "door" has 2 listeners \(Yaml in .*, door#\d+ in .*door\.mjs\)/,
      );
      const res = await t.app.inject({ method: 'GET', url: '/hook/door' });
      expect(res.body).toBe('Yaml');
    } finally {
      await t.close();
    }
  });
});
