import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach } from 'vitest';
import { loadConfig } from '../../src/config/load.ts';
import { builtinPlugins } from '../../src/plugins/index.ts';
import { checkConfiguration } from '../../src/app/user-layer.ts';
import { tempDir } from './service.ts';

/**
 * What `pipit config check` does, for a test file: each test gets a temporary folder (removed
 * after it), and `check(yaml)` loads that text as config.yaml there and returns the warnings (it
 * throws the configuration errors).
 *
 * @example
 * const config = configChecker();
 * it('warns', () => expect(config.check('procedure.x:\n  - action: light.hue.on\n')).toHaveLength(1));
 */
export function configChecker(): { check(yaml: string): string[]; dir(): string } {
  let tmp: ReturnType<typeof tempDir>;
  beforeEach(() => {
    tmp = tempDir();
  });
  afterEach(() => tmp.cleanup());
  return {
    check(yaml) {
      const path = join(tmp.dir, 'config.yaml');
      writeFileSync(path, yaml);
      return checkConfiguration(loadConfig({ path, plugins: builtinPlugins }), builtinPlugins);
    },
    dir: () => tmp.dir,
  };
}
