// Writes a large file over and over through the file plugin's own file.write, alternating two
// contents, until it is killed. Used by atomicity.test.ts: `node writer-child.ts <root> <bytes>`.
import { createLogger } from '../../../src/core/logger.ts';
import type { ActionContext } from '../../../src/core/action.ts';
import type { Services } from '../../../src/core/services.ts';
import { FileConfig } from '../../../src/plugins/file/config.ts';
import filePlugin from '../../../src/plugins/file/plugin.ts';
import type { FileState } from '../../../src/plugins/file/state.ts';
import { write } from '../../../src/plugins/file/write.ts';

const [root, bytes] = process.argv.slice(2) as [string, string];
const config = FileConfig.parse({ roots: [root] });
const log = createLogger({ level: 'silent' });
const state = await filePlugin.init!({ config, log, services: {} as Services });
const ctx: ActionContext<FileState> = {
  state,
  log,
  services: {} as Services,
  signal: new AbortController().signal,
};
const contents = ['a', 'b'].map((c) => c.repeat(Number(bytes)));
for (let i = 0; ; i++) {
  await write.run(
    {
      file: 'target.txt',
      content: contents[i % 2],
      encoding: 'utf-8',
      append: false,
      parents: false,
    },
    ctx,
  );
  process.stdout.write(`wrote ${i}\n`);
}
