import { z } from 'zod';

/** Default of `file.max_read_bytes`: the most one `file.read` returns. */
export const DEFAULT_MAX_READ_BYTES = 10 * 1024 * 1024;

/** Default of `file.max_list_entries`: the most one `file.list` returns. */
export const DEFAULT_MAX_LIST_ENTRIES = 10_000;

/**
 * The `file:` configuration section. Its presence (even `file: {}`) turns the plugin on.
 *
 * @example
 * FileConfig.parse({ roots: ['/srv/pipit', '~/notes'] }).max_read_bytes; // 10485760
 */
export const FileConfig = z.strictObject({
  roots: z
    .array(
      z
        .string()
        .min(1)
        .refine((p) => p.startsWith('/') || p === '~' || p.startsWith('~/'), {
          message: 'must be an absolute path (or start with ~/)',
        }),
    )
    .min(1)
    .optional()
    .describe(
      'directories the plugin may touch; every path outside them (after resolving symlinks and "..") is refused; absent = anywhere the service user can reach',
    ),
  max_read_bytes: z
    .number()
    .int()
    .min(1)
    .max(1024 * 1024 * 1024)
    .default(DEFAULT_MAX_READ_BYTES)
    .describe('the most one file.read returns; larger files are read in parts (offset, size)'),
  max_list_entries: z
    .number()
    .int()
    .min(1)
    .max(1_000_000)
    .default(DEFAULT_MAX_LIST_ENTRIES)
    .describe('the most entries one file.list returns'),
});
export type FileConfig = z.output<typeof FileConfig>;
