import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { freePort } from '../../helpers/net.ts';
import { call } from '../call.ts';
import { codeOf, mpdApp } from './helpers.ts';
import type { MpdApp } from './helpers.ts';
import { startMpd } from './mpd-server.ts';
import type { MpdServer } from './mpd-server.ts';

// music.mpd's link to MPD: a Unix socket, passwords, MPD restarting or not answering, nothing
// listening. Each case with its own service; two real MPDs (one with a password).

const STATE_HOOK = `
event.hook.MpdPlaying:
  if: {type: MusicPlayEvent}
  then:
    - action: variable.set
      args:
        mpd_playing: \${track['file']}
`;

let mpd: MpdServer;
let secured: MpdServer;
const servers: MpdServer[] = [];
const apps: MpdApp[] = [];
// A quote and a backslash, escaped in mpd.conf and on the wire.
const PASSWORD = 'pass "word" \\1';

async function app(...args: Parameters<typeof mpdApp>): Promise<MpdApp> {
  const made = await mpdApp(...args);
  apps.push(made);
  return made;
}

beforeAll(async () => {
  const started = await Promise.allSettled([startMpd(), startMpd({ password: PASSWORD })]);
  for (const s of started) if (s.status === 'fulfilled') servers.push(s.value);
  for (const s of started) if (s.status === 'rejected') throw s.reason;
  [mpd, secured] = servers as [MpdServer, MpdServer];
});
afterAll(async () => {
  for (const made of apps) await made.t.close();
  for (const server of servers) await server.stop();
});

describe('music.mpd: where MPD is', () => {
  it('a host that is a path is the Unix socket', async () => {
    const a = await app({ host: mpd.socket });
    expect(a.link()?.detail).toBe(
      `MPD ${mpd.socket} connected (protocol ${a.link()?.detail?.match(/protocol (\S+)\)/)?.[1]})`,
    );
    expect((await call(a.t, 'music.mpd.status')).output).toMatchObject({ state: 'stop' });
  });

  it('nothing listening: calls fail at once with UNAVAILABLE, naming the server and the retry', async () => {
    const port = await freePort();
    const a = await app({ host: '127.0.0.1', port }, { connected: false });
    await vi.waitFor(() => expect(a.link()?.detail).toMatch(/ECONNREFUSED/));
    const started = Date.now();
    const res = await call(a.t, 'music.mpd.play');
    expect(Date.now() - started).toBeLessThan(500);
    expect(res.code).toBe('UNAVAILABLE');
    expect(res.errors[0]).toMatch(
      new RegExp(
        `music\\.mpd: MPD at 127\\.0\\.0\\.1:${port} is not connected: .*ECONNREFUSED.*; retrying in \\d+ s`,
      ),
    );
  });
});

describe('music.mpd: passwords', () => {
  it('with the right password (quotes and backslashes too), it works', async () => {
    const a = await app({ host: '127.0.0.1', port: secured.port, password: PASSWORD });
    expect((await call(a.t, 'music.mpd.set_volume', { volume: 30 })).output).toMatchObject({
      volume: '30',
    });
  });

  it('a wrong password: the status and the calls name music.mpd.password, never the password', async () => {
    const a = await app(
      { host: '127.0.0.1', port: secured.port, password: 'wrong-secret' },
      { connected: false },
    );
    await vi.waitFor(() =>
      expect(a.link()?.detail).toMatch(
        /refused the password: check music\.mpd\.password \(it said "incorrect password", ACK 3\)/,
      ),
    );
    expect(a.link()?.connected).toBe(false);
    const res = await call(a.t, 'music.mpd.status');
    expect(res.code).toBe('UNAVAILABLE');
    expect(res.errors[0]).toMatch(/check music\.mpd\.password/);
    expect(JSON.stringify([res.errors, a.link()])).not.toContain('wrong-secret');
  });

  it('no password for an MPD that wants one: says to set music.mpd.password', async () => {
    const a = await app({ host: '127.0.0.1', port: secured.port }, { connected: false });
    await vi.waitFor(() =>
      expect(a.link()?.detail).toMatch(/wants a password: set music\.mpd\.password/),
    );
  });
});

describe('music.mpd: MPD going away', () => {
  it('MPD restarting: the link goes down, calls fail fast, then it reconnects and events resume', async () => {
    const a = await app({ host: '127.0.0.1', port: mpd.port }, { yaml: STATE_HOOK });
    await call(a.t, 'music.mpd.add', { resource: 'three.wav' });
    await call(a.t, 'music.mpd.play');
    await vi.waitFor(() => expect(a.variable('mpd_playing')).toBe('three.wav'));

    const before = a.events.length;
    await mpd.kill();
    await vi.waitFor(() => expect(a.link()?.connected).toBe(false));
    expect(a.link()?.detail).toMatch(/not connected/);
    const down = await call(a.t, 'music.mpd.status');
    expect(down.code).toBe('UNAVAILABLE');

    await mpd.start();
    await vi.waitFor(() => expect(a.link()?.connected).toBe(true), { timeout: 5000 });
    // A fresh MPD (no state file): stopped, with an empty queue, which is heard on reconnecting.
    await vi.waitFor(() =>
      expect(a.events.slice(before).map((e) => e.kind)).toEqual([
        'MusicStopEvent',
        'PlaylistChangeEvent',
      ]),
    );
    expect((await call(a.t, 'music.mpd.status')).output).toMatchObject({
      state: 'stop',
      playlistlength: '0',
    });
    await call(a.t, 'music.mpd.play', { resource: 'Album One/two.wav' });
    await vi.waitFor(() => expect(a.variable('mpd_playing')).toBe('Album One/two.wav'));
    await call(a.t, 'music.mpd.stop');
  });

  it('MPD not answering: a command is a TIMEOUT after music.mpd.timeout, and the link recovers', async () => {
    const a = await app({ host: '127.0.0.1', port: mpd.port, timeout: 0.5 });
    mpd.freeze();
    try {
      const started = Date.now();
      const res = await call(a.t, 'music.mpd.status');
      expect(Date.now() - started).toBeLessThan(2000);
      expect(codeOf(res)).toBe('TIMEOUT');
      expect(res.errors[0]).toMatch(
        /did not answer "status" within 0\.5 s \(music\.mpd\.timeout\)/,
      );
      await vi.waitFor(() => expect(a.link()?.connected).toBe(false));
    } finally {
      mpd.thaw();
    }
    await vi.waitFor(() => expect(a.link()?.connected).toBe(true), { timeout: 5000 });
    expect((await call(a.t, 'music.mpd.status')).output).toMatchObject({ state: 'stop' });
  });
});
