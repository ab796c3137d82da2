// Configuration mistakes are named precisely — a "did you mean" for misspelt
// keys, the line, column and text of a YAML error.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/load.ts';
import { builtinPlugins } from '../../src/plugins/index.ts';
import { tempDir } from '../helpers/service.ts';

let tmp: ReturnType<typeof tempDir>;
beforeEach(() => (tmp = tempDir()));
afterEach(() => tmp.cleanup());

function load(yaml: string): string {
  const path = join(tmp.dir, 'config.yaml');
  writeFileSync(path, yaml);
  try {
    loadConfig({ path, plugins: builtinPlugins });
  } catch (err) {
    return (err as Error).message;
  }
  throw new Error('the configuration loaded');
}

describe('configuration errors', () => {
  it.each([
    ['backend.http:\n  prot: 8008\n', /backend\.http: unknown key "prot"\. Did you mean "port"\?/],
    ['logging:\n  levle: info\n', /logging: unknown key "levle"\. Did you mean "level"\?/],
    ['device_di: x\n', /unknown key "device_di"\. Did you mean "device_id"\?/],
  ])('a misspelt key gets a "did you mean": %j', (yaml, message) => {
    expect(load(yaml)).toMatch(message);
  });

  it('a misspelt plugin or backend section is a warning with a "did you mean" (Platypush has many)', () => {
    const path = join(tmp.dir, 'config.yaml');
    writeFileSync(path, 'music.spotfy:\n  client_id: a\nbackend.htp:\n  port: 1\n');
    const { warnings } = loadConfig({ path, plugins: builtinPlugins });
    expect(warnings.join('\n')).toMatch(/plugin music\.spotfy .* Did you mean "music\.spotify"\?/);
    expect(warnings.join('\n')).toMatch(/backend backend\.htp .* Did you mean "backend\.http"\?/);
  });

  it('a YAML error names the line and column and shows the text with a caret', () => {
    const message = load('device_id: x\nkey: : bad\n');
    expect(message).toMatch(/not valid YAML: .* at line 2, column 6:\n {2}key: : bad\n {7}\^/);
  });

  it('an unclosed bracket points at the line that opened it', () => {
    const message = load('procedure.a:\n  - action: utils.echo\n    args: {text: [oops\n\n');
    expect(message).toMatch(
      /at line 3, column \d+ \(the file ends without closing it\):\n {2} {4}args: \{text: \[oops/,
    );
  });
});
