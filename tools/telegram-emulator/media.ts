import { basename } from 'node:path';
import type { Params, UploadedFile } from './params.ts';
import { BadParams } from './params.ts';
import type { EmulatorState } from './state.ts';
import { newFileIds } from './state.ts';

/** Where a sendPhoto/sendDocument file came from (https://core.telegram.org/bots/api#sending-files). */
export type InputFile =
  | { how: 'upload'; file: UploadedFile }
  | { how: 'file_id'; fileId: string }
  | { how: 'url'; url: string };

/**
 * The file of `field`: an upload under that name (or "attach://<name>"), an HTTP URL, or a file_id
 * the emulator gave out. Missing or unknown: the Bot API's 400 descriptions.
 */
export function inputFile(params: Params, field: string): InputFile {
  const upload = params.files[field];
  if (upload) return { how: 'upload', file: upload };
  const value = params.values[field];
  if (typeof value !== 'string' || !value)
    throw new BadParams(`Bad Request: there is no ${field} in the request`);
  if (value.startsWith('attach://')) {
    const attached = params.files[value.slice('attach://'.length)];
    if (!attached) throw new BadParams(`Bad Request: there is no ${field} in the request`);
    return { how: 'upload', file: attached };
  }
  if (/^https?:\/\//i.test(value)) return { how: 'url', url: value };
  return { how: 'file_id', fileId: value };
}

/** Width and height of a PNG or JPEG, or undefined for anything else. */
export function imageSize(bytes: Buffer): { width: number; height: number } | undefined {
  if (
    bytes.length >= 24 &&
    bytes.readUInt32BE(0) === 0x89504e47 &&
    bytes.toString('latin1', 12, 16) === 'IHDR'
  )
    return { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) };
  if (bytes.length < 4 || bytes[0] !== 0xff || bytes[1] !== 0xd8) return undefined;
  // JPEG: walk the segments to a start-of-frame marker (SOF0-SOF15 but DHT, JPG and DAC).
  let at = 2;
  while (at + 9 < bytes.length) {
    if (bytes[at] !== 0xff) return undefined;
    const marker = bytes[at + 1]!;
    const length = bytes.readUInt16BE(at + 2);
    if (marker >= 0xc0 && marker <= 0xcf && ![0xc4, 0xc8, 0xcc].includes(marker))
      return { height: bytes.readUInt16BE(at + 5), width: bytes.readUInt16BE(at + 7) };
    at += 2 + length;
  }
  return undefined;
}

function scaled(width: number, height: number, longest: number): { width: number; height: number } {
  const ratio = Math.min(1, longest / Math.max(width, height));
  return {
    width: Math.max(1, Math.round(width * ratio)),
    height: Math.max(1, Math.round(height * ratio)),
  };
}

/**
 * The PhotoSize array (https://core.telegram.org/bots/api#photosize) of a sent photo, smallest
 * first as Telegram sends them; registered so that its file_id can be sent again.
 */
export function photoSizes(state: EmulatorState, input: InputFile): unknown[] {
  if (input.how === 'file_id') {
    const stored = state.files.get(input.fileId);
    if (!stored) throw new BadParams('Bad Request: wrong file identifier/HTTP URL specified');
    if (stored.kind !== 'photo') throw new BadParams('Bad Request: type of file mismatch');
    return stored.object as unknown[];
  }
  // A URL is not fetched: the emulator answers as if it were a 1280x720 picture.
  const size = input.how === 'upload' ? imageSize(input.file.bytes) : { width: 1280, height: 720 };
  if (!size) throw new BadParams('Bad Request: IMAGE_PROCESS_FAILED');
  const bytes = input.how === 'upload' ? input.file.bytes.length : 102400;
  const sizes = [90, 320, 800, 1280]
    .filter((longest) => longest < Math.max(size.width, size.height))
    .map((longest) => ({ ...scaled(size.width, size.height, longest), longest }))
    .map(({ width, height, longest }) => ({
      ...newFileIds('AgACAgIAAxkDAAI'),
      file_size: Math.round((bytes * longest) / Math.max(size.width, size.height)),
      width,
      height,
    }));
  sizes.push({ ...newFileIds('AgACAgIAAxkDAAI'), file_size: bytes, ...size });
  for (const s of sizes) state.files.set(s.file_id, { kind: 'photo', object: sizes });
  return sizes;
}

/** The Document object (https://core.telegram.org/bots/api#document) of a sent document. */
export function documentOf(state: EmulatorState, input: InputFile): unknown {
  if (input.how === 'file_id') {
    const stored = state.files.get(input.fileId);
    if (!stored) throw new BadParams('Bad Request: wrong file identifier/HTTP URL specified');
    if (stored.kind !== 'document') throw new BadParams('Bad Request: type of file mismatch');
    return stored.object;
  }
  const document =
    input.how === 'upload'
      ? {
          file_name: input.file.filename,
          mime_type: input.file.contentType,
          ...newFileIds('BQACAgIAAxkDAAI'),
          file_size: input.file.bytes.length,
        }
      : {
          file_name: basename(new URL(input.url).pathname) || 'file',
          ...newFileIds('BQACAgIAAxkDAAI'),
        };
  state.files.set(document.file_id, { kind: 'document', object: document });
  return document;
}
