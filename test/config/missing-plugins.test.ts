// A step that calls a plugin Pipit does not have warns at load (and reload) and fails when it runs;
// a misspelt action of a plugin Pipit has stays an error; every problem is reported at once.
import { writeFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { notProvidedPlatypushPlugins } from '../../src/core/platypush-plugins.ts';
import { pluginCatalog } from '../../src/plugins/catalog.ts';
import { makeApp, registerAndToken } from '../helpers/service.ts';
import type { TestApp } from '../helpers/service.ts';
import { configChecker } from '../helpers/config-check.ts';

const config = configChecker();

const check = (yaml: string) => config.check(yaml);
const refusal = (fn: () => unknown): string => {
  try {
    fn();
  } catch (err) {
    return (err as Error).message;
  }
  throw new Error('expected an error');
};

describe('steps that call a plugin Pipit does not have', () => {
  it('warn, naming the plugin, the step and that no Pipit plugin provides it', () => {
    const warnings = check(
      'procedure.x:\n  - action: utils.echo\n  - action: media.kodi.play\nevent.hook.H:\n  if: {type: CustomEvent}\n  then:\n    - action: media.vlc.play\n',
    );
    expect(warnings).toEqual([
      expect.stringMatching(
        /config\.yaml: plugin "media\.kodi" is not installed: procedure\.x step 2 \(media\.kodi\.play\) will fail when it runs \(no Pipit plugin provides it yet\)$/,
      ),
      expect.stringMatching(
        /plugin "media\.vlc" is not installed: event\.hook\.H then step 1 \(media\.vlc\.play\) will fail when it runs \(no Pipit plugin provides it yet\)$/,
      ),
    ]);
  });

  it("a Platypush plugin under one of Pipit's plugin names (http.webpage) is a missing plugin", () => {
    expect(check('procedure.x:\n  - action: http.webpage.simplify\n').join()).toMatch(
      /plugin "http\.webpage" is not installed: procedure\.x step 1/,
    );
  });

  it('a name near one of Pipit\'s plugins gets a "did you mean"', () => {
    expect(check('procedure.x:\n  - action: utlis.echo\n').join()).toMatch(
      /plugin "utlis" is not installed: .* \(no Pipit plugin provides it yet\)\. Did you mean "utils"\?/,
    );
  });

  it('a misspelt action of a plugin Pipit has is still an error, with every one listed', () => {
    const message = refusal(() =>
      check(
        'procedure.x:\n  - action: utils.ecoh\n  - action: media.kodi.play\nprocedure.y:\n  - action: variable.gte\n  - action: procedure.nope\n',
      ),
    );
    expect(message).toMatch(
      /procedure\.x step 1: plugin "utils" has no action "ecoh"\. Did you mean "echo"\?/,
    );
    expect(message).toMatch(
      /procedure\.y step 1: plugin "variable" has no action "gte"\. Did you mean "get"\?/,
    );
    expect(message).toMatch(/procedure\.y step 2: no procedure named "nope"/);
    expect(message).not.toMatch(/media\.kodi/);
  });

  it('no plugin the table says Pipit lacks is one Pipit ships (name or alias)', () => {
    const shipped = pluginCatalog.flatMap((p) => [p.name, ...(p.aliases ?? [])]);
    expect(shipped).toContain('http.request');
    expect(notProvidedPlatypushPlugins().filter((name) => shipped.includes(name))).toEqual([]);
  });
});

describe('on reload', () => {
  let t: TestApp;
  afterEach(() => t.close());

  it('the warnings come back from the reload, which takes the configuration', async () => {
    t = await makeApp('procedure.x:\n  - return: 1\n', { dir: config.dir() });
    const auth = { authorization: `Bearer ${await registerAndToken(t.app)}` };
    writeFileSync(
      t.configPath,
      'device_id: test-host\nworkdir: ./data\nbackend.http:\n  port: 0\n  bind_address: 127.0.0.1\nprocedure.x:\n  - action: media.kodi.pause\n',
    );
    const res = await t.app.inject({ method: 'POST', url: '/reload', headers: auth });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      reloaded: true,
      warnings: [
        expect.stringMatching(/plugin "media\.kodi" is not installed: procedure\.x step 1/),
      ],
    });
    const { message } = await t.service.execute(
      { type: 'request', action: 'procedure.x' },
      { transport: 'cli' },
    );
    expect(message.response.errors.join()).toMatch(
      /no plugin "media\.kodi" for action "media\.kodi\.pause": it is not installed \(no Pipit plugin provides it yet\)/,
    );
  });
});
