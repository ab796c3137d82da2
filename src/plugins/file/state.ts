import type { FileConfig } from './config.ts';
import type { PathGuard } from './paths.ts';

/** What the file plugin's actions share. */
export interface FileState {
  config: FileConfig;
  guard: PathGuard;
}
