import { StringDecoder } from 'node:string_decoder';

/**
 * Keeps the first `limit` bytes written to it and counts the rest, so a command that prints
 * gigabytes costs no more memory than the limit.
 *
 * @example
 * const out = new BoundedBuffer(4);
 * out.push(Buffer.from('abcdef')); // out.text() === 'abcd', out.truncated === true, out.total === 6
 */
export class BoundedBuffer {
  private readonly chunks: Buffer[] = [];
  private kept = 0;
  /** Bytes written, kept or not. */
  total = 0;

  readonly limit: number;

  constructor(limit: number) {
    this.limit = limit;
  }

  push(chunk: Buffer): void {
    this.total += chunk.length;
    const room = this.limit - this.kept;
    if (room <= 0) return;
    const part = chunk.length <= room ? chunk : chunk.subarray(0, room);
    this.chunks.push(part);
    this.kept += part.length;
  }

  get truncated(): boolean {
    return this.total > this.kept;
  }

  /** The kept bytes as UTF-8 text (a character cut at the limit becomes U+FFFD). */
  text(): string {
    return Buffer.concat(this.chunks).toString('utf8');
  }
}

/**
 * Splits a byte stream into lines (UTF-8, `\n` or `\r\n`), calling `onLine` for each; a line longer
 * than `maxLine` characters is passed on in pieces of that size.
 *
 * @example
 * const lines: string[] = [];
 * const split = new LineSplitter((l) => lines.push(l));
 * split.push(Buffer.from('a\nb')); split.end(); // lines: ['a', 'b']
 */
export class LineSplitter {
  private readonly decoder = new StringDecoder('utf8');
  private partial = '';
  private stopped = false;
  private readonly onLine: (line: string) => void;
  private readonly maxLine: number;

  constructor(onLine: (line: string) => void, maxLine = 64 * 1024) {
    this.onLine = onLine;
    this.maxLine = maxLine;
  }

  push(chunk: Buffer): void {
    if (this.stopped) return;
    const text = this.partial + this.decoder.write(chunk);
    let start = 0;
    for (let nl = text.indexOf('\n'); nl >= 0; nl = text.indexOf('\n', start)) {
      const line = text.slice(start, nl);
      this.onLine(line.endsWith('\r') ? line.slice(0, -1) : line);
      start = nl + 1;
    }
    this.partial = text.slice(start);
    while (this.partial.length > this.maxLine) {
      this.onLine(this.partial.slice(0, this.maxLine));
      this.partial = this.partial.slice(this.maxLine);
    }
  }

  /**
   * Stops at the output limit: the unfinished line is dropped, not passed on as if it were whole
   * (`line` for what was `line143`), and later pushes and `end()` do nothing.
   */
  cut(): void {
    this.stopped = true;
    this.partial = '';
  }

  /** Passes on the last line when the stream did not end with a newline (unless {@link cut}). */
  end(): void {
    if (this.stopped) return;
    const rest = this.partial + this.decoder.end();
    this.partial = '';
    if (rest) this.onLine(rest);
  }
}

/**
 * The note appended to output that was cut at the limit.
 *
 * @example
 * truncationNote(5_000_000, 1_048_576); // '\n[output truncated: the command wrote 5000000 bytes; ...]'
 */
export function truncationNote(total: number, kept: number): string {
  return `\n[output truncated: the command wrote ${total} bytes; the first ${kept} are shown (raise shell.max_output_bytes to keep more)]`;
}
