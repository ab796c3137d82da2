import { open } from 'node:fs/promises';
import type { FileHandle } from 'node:fs/promises';
import { READ_FLAGS } from './atomic.ts';
import { z } from 'zod';
import { PipitError } from '../../core/errors.ts';
import { fsCall } from './errors.ts';
import { EncodingParam, PathParam, fileAction } from './params.ts';

export const read = fileAction({
  name: 'read',
  summary: 'Returns the content of a file: text (UTF-8) or, with encoding "base64", binary data.',
  description:
    'Files larger than file.max_read_bytes (10 MiB by default) are refused; read them in parts with offset and size.',
  params: {
    file: PathParam('the file to read'),
    encoding: EncodingParam,
    offset: z
      .number()
      .int()
      .min(0)
      .default(0)
      .describe('where to start, in bytes from the beginning'),
    size: z
      .number()
      .int()
      .min(0)
      .optional()
      .describe('how many bytes to read (default: to the end, up to file.max_read_bytes)'),
  },
  run: async ({ file, encoding, offset, size }, { state }) => {
    const action = 'file.read';
    const limit = state.config.max_read_bytes;
    if (size !== undefined && size > limit) {
      throw new PipitError(
        'ACTION_FAILED',
        `${action}: "size" ${size} is over file.max_read_bytes (${limit}): read in parts of at most ${limit} bytes, or raise file.max_read_bytes`,
      );
    }
    return state.guard.with({ action, param: 'file' }, file, { intent: 'read' }, async (w) => {
      const path = w.path;
      // O_NONBLOCK: opening a FIFO would otherwise wait for a writer, holding one of libuv's few
      // threads meanwhile; what was opened is then checked on its descriptor.
      const handle = await fsCall(action, path, () =>
        open(w.at, READ_FLAGS).catch((err: NodeJS.ErrnoException) => {
          if (err.code !== 'ENXIO') throw err;
          throw notFile(action, path);
        }),
      );
      try {
        const st = await fsCall(action, path, () => handle.stat());
        if (st.isFIFO() || st.isSocket()) throw notFile(action, path);
        if (st.isDirectory()) {
          throw new PipitError(
            'ACTION_FAILED',
            `${action}: ${path} is a directory (file.list lists it)`,
            { details: { path } },
          );
        }
        return await readFrom(action, path, handle, st.size, { offset, size, limit, encoding });
      } finally {
        await handle.close();
      }
    });
  },
});

const notFile = (action: string, path: string) =>
  new PipitError('ACTION_FAILED', `${action}: ${path} is a pipe or a socket, not a file`, {
    details: { path },
  });

async function readFrom(
  action: string,
  path: string,
  handle: FileHandle,
  fileSize: number,
  opts: { offset: number; size: number | undefined; limit: number; encoding: string },
): Promise<string> {
  const { offset, size, limit } = opts;
  const rest = Math.max(0, fileSize - offset);
  if (size === undefined && rest > limit) {
    throw new PipitError(
      'ACTION_FAILED',
      `${action}: ${path} is ${fileSize} bytes, over file.max_read_bytes (${limit}): read it in parts with "offset" and "size", or raise file.max_read_bytes`,
      { details: { path, size: fileSize, limit } },
    );
  }
  // Read to the end rather than trusting st.size: files in /proc and /sys report 0.
  const want = size ?? limit;
  const chunks: Buffer[] = [];
  let got = 0;
  // Buffers sized to the file (plus one byte, to see its end at once), in parts of at most 1 MiB.
  const part = Math.min(1 << 20, Math.max(rest + 1, 1 << 16));
  while (got < want) {
    const buffer = Buffer.allocUnsafe(Math.min(want - got, part));
    const { bytesRead } = await fsCall(action, path, () =>
      handle.read(buffer, 0, buffer.length, offset + got),
    );
    if (bytesRead === 0) break;
    chunks.push(buffer.subarray(0, bytesRead));
    got += bytesRead;
  }
  if (size === undefined && got === limit) {
    const probe = await handle.read(Buffer.alloc(1), 0, 1, offset + got);
    if (probe.bytesRead > 0) {
      throw new PipitError(
        'ACTION_FAILED',
        `${action}: ${path} holds more than file.max_read_bytes (${limit}): read it in parts with "offset" and "size", or raise file.max_read_bytes`,
        { details: { path, limit } },
      );
    }
  }
  return Buffer.concat(chunks, got).toString(opts.encoding === 'base64' ? 'base64' : 'utf8');
}
