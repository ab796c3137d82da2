import { definePlugin } from '../../core/action.ts';
import { headFacts } from '../api/head.ts';
import { head } from './head.ts';
import { FileConfig } from './config.ts';
import { copy, move, rename } from './copy-move.ts';
import { list } from './list.ts';
import { mkdir } from './mkdir.ts';
import { chmod, home, link, touch } from './misc.ts';
import { OwnFiles, refuseRootsOverPipit } from './own-files.ts';
import { PathGuard } from './paths.ts';
import { read } from './read.ts';
import { del, rmdir, unlink } from './remove.ts';
import { exists, getsize, stat } from './stat.ts';
import type { FileState } from './state.ts';
import { append, write } from './write.ts';

/**
 * `file`: reads and writes files on the host as the service's user. Off until the configuration has
 * a `file:` section; `file.roots` confines every path.
 *
 * @example
 * // config.yaml: file: {roots: ['/srv/pipit']}
 * await run('file.write', { file: '/srv/pipit/notes.txt', content: 'hello' });
 */
export default definePlugin<FileConfig, FileState>({
  ...headFacts(head),
  // Privileged: it keeps Pipit's own files (config, workdir, scripts) out of reach.
  privileged: true,
  summary:
    'Reads, writes (atomically), copies, moves, lists and deletes files on this host as the service user, optionally confined to file.roots.',
  config: FileConfig,
  actions: [
    read,
    write,
    append,
    copy,
    move,
    rename,
    del,
    unlink,
    mkdir,
    rmdir,
    list,
    stat,
    exists,
    getsize,
    touch,
    chmod,
    link,
    home,
  ],
  init: ({ config, services }) => {
    const files = () => services.pipitFiles?.();
    const current = files();
    if (current) refuseRootsOverPipit(config.roots, current);
    return { config, guard: new PathGuard(config.roots, new OwnFiles(files)) };
  },
});
