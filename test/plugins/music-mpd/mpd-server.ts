import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createConnection } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '../../helpers/net.ts';

// A real MPD (Debian's /usr/bin/mpd, or $MPD) for the music.mpd tests: its own temporary
// directory with a music library generated here, a null audio output (playback runs in real time,
// silently) and a software mixer, so that volume works.

/** A track of the generated library. */
export interface LibraryTrack {
  file: string;
  artist: string;
  title: string;
  album: string;
  track: string;
}

/**
 * The library every test MPD gets: three tagged songs of 60 s in two albums, and one whose file
 * name holds a quote and a semicolon (`quote" ; clear.wav`), for the quoting tests.
 */
export const LIBRARY: readonly LibraryTrack[] = [
  {
    file: 'Album One/one.wav',
    artist: 'The Testers',
    title: 'First Song',
    album: 'Album One',
    track: '1',
  },
  {
    file: 'Album One/two.wav',
    artist: 'The Testers',
    title: 'Second "Quoted" Song',
    album: 'Album One',
    track: '2',
  },
  {
    file: 'three.wav',
    artist: 'Other Artist',
    title: 'Third Song',
    album: 'Album Two',
    track: '1',
  },
  {
    file: 'odd/quote" ; clear.wav',
    artist: 'Odd \\ Names',
    title: 'Quote',
    album: 'Odd',
    track: '1',
  },
];

const SECONDS = 60;

function syncsafe(n: number): Buffer {
  return Buffer.from([(n >> 21) & 0x7f, (n >> 14) & 0x7f, (n >> 7) & 0x7f, n & 0x7f]);
}

/** An ID3v2.3 tag of UTF-8 text frames. */
function id3(frames: Record<string, string>): Buffer {
  const body = Buffer.concat(
    Object.entries(frames).map(([id, text]) => {
      const value = Buffer.concat([Buffer.from([3]), Buffer.from(text, 'utf8')]);
      const header = Buffer.alloc(10);
      header.write(id, 0, 'latin1');
      header.writeUInt32BE(value.length, 4);
      return Buffer.concat([header, value]);
    }),
  );
  const header = Buffer.alloc(10);
  header.write('ID3', 0, 'latin1');
  header[3] = 3;
  syncsafe(body.length).copy(header, 6);
  return Buffer.concat([header, body]);
}

function chunk(id: string, data: Buffer): Buffer {
  const header = Buffer.alloc(8);
  header.write(id, 0, 'latin1');
  header.writeUInt32LE(data.length, 4);
  return Buffer.concat([header, data, Buffer.alloc(data.length % 2)]);
}

/**
 * A WAV file of silence (8 kHz, 8-bit mono) with the track's tags in an `id3 ` chunk, which MPD's
 * id3tag reader takes from RIFF files.
 */
export function taggedWav(t: LibraryTrack, seconds = SECONDS): Buffer {
  const rate = 8000;
  const fmt = Buffer.alloc(16);
  fmt.writeUInt16LE(1, 0); // PCM
  fmt.writeUInt16LE(1, 2); // mono
  fmt.writeUInt32LE(rate, 4);
  fmt.writeUInt32LE(rate, 8); // bytes per second
  fmt.writeUInt16LE(1, 12); // block align
  fmt.writeUInt16LE(8, 14); // bits per sample
  const tags = id3({ TIT2: t.title, TPE1: t.artist, TALB: t.album, TRCK: t.track });
  const body = Buffer.concat([
    Buffer.from('WAVE', 'latin1'),
    chunk('fmt ', fmt),
    chunk('data', Buffer.alloc(rate * seconds, 128)),
    chunk('id3 ', tags),
  ]);
  const riff = Buffer.alloc(8);
  riff.write('RIFF', 0, 'latin1');
  riff.writeUInt32LE(body.length, 4);
  return Buffer.concat([riff, body]);
}

/** A running MPD. */
export interface MpdServer {
  port: number;
  /** Its Unix socket. */
  socket: string;
  readonly pid: number;
  /** Sends raw protocol lines on a fresh connection (with the password) and answers the text. */
  send(...lines: string[]): Promise<string>;
  /** Stops it (SIGTERM) and waits for it to exit; clients see the connection closed. */
  kill(): Promise<void>;
  /** Starts it again, on the same port and socket, after kill(). */
  start(): Promise<void>;
  /** SIGSTOP: it stops answering, with its sockets open. */
  freeze(): void;
  /** SIGCONT after freeze(). */
  thaw(): void;
  /** Kills it for good and removes its directory. */
  stop(): Promise<void>;
}

/** A value in double quotes, in mpd.conf and on the wire: `"` and `\` escaped. */
function escape(value: string): string {
  return value.replace(/[\\"]/g, (c) => `\\${c}`);
}

function mpdBinary(): string {
  if (process.env.MPD) return process.env.MPD;
  return existsSync('/usr/bin/mpd') ? '/usr/bin/mpd' : 'mpd';
}

/** Connects, reads the greeting, sends `lines` (then `close`) and answers all MPD said. */
function converse(target: { port: number } | { path: string }, lines: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket =
      'path' in target
        ? createConnection({ path: target.path })
        : createConnection({ host: '127.0.0.1', port: target.port });
    let text = '';
    socket.setEncoding('utf8');
    socket.on('data', (c: string) => (text += c));
    socket.once('connect', () => socket.write([...lines, 'close', ''].join('\n')));
    socket.once('error', reject);
    socket.once('close', () => resolve(text));
  });
}

/**
 * Starts MPD on a free loopback port and a Unix socket, with `password` (full permissions for it,
 * none without) when given, and resolves once it greets and has indexed the library.
 *
 * @example
 * const mpd = await startMpd();
 * // music.mpd: {host: 127.0.0.1, port: mpd.port}
 * await mpd.stop();
 */
export async function startMpd(
  opts: { password?: string; deadlineMs?: number } = {},
): Promise<MpdServer> {
  const port = await freePort();
  const dir = mkdtempSync(join(tmpdir(), 'pipit-mpd-'));
  const music = join(dir, 'music');
  for (const t of LIBRARY) {
    mkdirSync(join(music, t.file, '..'), { recursive: true });
    writeFileSync(join(music, t.file), taggedWav(t));
  }
  mkdirSync(join(dir, 'playlists'));
  const socket = join(dir, 'mpd.sock');
  const conf = join(dir, 'mpd.conf');
  writeFileSync(
    conf,
    [
      `music_directory "${music}"`,
      `playlist_directory "${join(dir, 'playlists')}"`,
      `db_file "${join(dir, 'database')}"`,
      `bind_to_address "127.0.0.1"`,
      `bind_to_address "${socket}"`,
      `port "${port}"`,
      `zeroconf_enabled "no"`,
      `auto_update "no"`,
      ...(opts.password
        ? [`password "${escape(opts.password)}@read,add,control,admin"`, `default_permissions ""`]
        : []),
      'audio_output {',
      '  type "null"',
      '  name "null"',
      '  mixer_type "software"',
      '}',
      '',
    ].join('\n'),
  );
  const login = opts.password ? [`password "${escape(opts.password)}"`] : [];
  let child: ChildProcess | undefined;
  let output = '';

  const launch = async () => {
    rmSync(socket, { force: true });
    output = '';
    const proc = spawn(mpdBinary(), ['--no-daemon', '--stderr', conf], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child = proc;
    let failed: Error | undefined;
    proc.once('error', (err) => (failed = err));
    proc.stdout.on('data', (c: Buffer) => (output += c.toString()));
    proc.stderr.on('data', (c: Buffer) => (output += c.toString()));
    const deadline = Date.now() + (opts.deadlineMs ?? 10_000);
    const fail = (why: string) => {
      proc.kill('SIGKILL');
      return new Error(`mpd did not start on port ${port}: ${why}\n${output}`);
    };
    // Ready when it greets, and has its library indexed (at its first start it scans it).
    for (;;) {
      if (failed)
        throw new Error(
          `cannot run ${mpdBinary()} (${failed.message}): install mpd with scripts/system-deps.sh, or set MPD`,
        );
      if (proc.exitCode !== null) throw fail(`exit ${proc.exitCode}`);
      if (Date.now() > deadline) throw fail('deadline passed');
      const said = await converse({ port }, [...login, 'status', 'stats']).catch(() => '');
      if (
        said.startsWith('OK MPD ') &&
        !said.includes('updating_db:') &&
        said.includes(`songs: ${LIBRARY.length}\n`)
      )
        return;
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
  };
  const kill = async () => {
    const proc = child;
    child = undefined;
    if (!proc || proc.exitCode !== null || proc.signalCode !== null) return;
    const exited = once(proc, 'exit');
    proc.kill('SIGCONT');
    proc.kill('SIGTERM');
    await exited;
  };

  try {
    await launch();
  } catch (err) {
    await kill();
    rmSync(dir, { recursive: true, force: true });
    throw err;
  }
  return {
    port,
    socket,
    get pid() {
      return child?.pid ?? 0;
    },
    send: (...lines) => converse({ port }, [...login, ...lines]),
    kill,
    start: launch,
    freeze: () => child?.kill('SIGSTOP'),
    thaw: () => child?.kill('SIGCONT'),
    async stop() {
      await kill();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
