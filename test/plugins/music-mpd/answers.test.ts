import { afterEach, describe, expect, it, vi } from 'vitest';
import { call } from '../call.ts';
import { startFakeMpd } from './fake-mpd.ts';
import type { FakeAnswer } from './fake-mpd.ts';
import { codeOf, mpdApp } from './helpers.ts';
import type { MpdApp } from './helpers.ts';

// Answers a real MPD gives only by chance or not at all, from a scripted one: a seek refused in
// the instant before the decoder starts, an unknown command, a server that is not MPD.

const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});

async function against(answer: (line: string) => FakeAnswer, greeting?: string) {
  const fake = await startFakeMpd(answer, greeting);
  closers.push(() => fake.close());
  return fake;
}
async function app(port: number, connected = true): Promise<MpdApp> {
  const a = await mpdApp({ host: '127.0.0.1', port }, { connected });
  closers.push(() => a.t.close());
  return a;
}

describe('music.mpd: answers of a scripted MPD', () => {
  it('a seek refused ("Not seekable") while the decoder has not started is tried again', async () => {
    let seeks = 0;
    const fake = await against((line) => {
      if (line === 'status')
        return seeks < 2
          ? ['state: play', 'elapsed: 0.000']
          : ['state: play', 'elapsed: 40.000', 'audio: 44100:16:2'];
      if (line === 'seekcur "40"') return ++seeks < 2 ? { ack: [5, 'Not seekable'] } : [];
      return [];
    });
    const a = await app(fake.port);
    const res = await call(a.t, 'music.mpd.seek', { position: 40 });
    expect(res.errors).toEqual([]);
    expect(res.output).toMatchObject({ elapsed: '40.000' });
    expect(fake.lines.filter((l) => l === 'seekcur "40"')).toHaveLength(2);
  });

  it("a stream that cannot seek (its audio started) is refused at once, with MPD's message", async () => {
    const fake = await against((line) => {
      if (line === 'status') return ['state: play', 'elapsed: 3.000', 'audio: 44100:16:2'];
      if (line.startsWith('seekcur')) return { ack: [5, 'Not seekable'] };
      return [];
    });
    const a = await app(fake.port);
    const res = await call(a.t, 'music.mpd.seek', { position: '+15' });
    expect(codeOf(res)).toBe('ACTION_FAILED');
    expect(res.errors[0]).toBe('music.mpd: MPD refused "seekcur": Not seekable (ACK 5)');
    expect(fake.lines.filter((l) => l.startsWith('seekcur'))).toEqual(['seekcur "+15"']);
  });

  it('a command this MPD does not know is an UPSTREAM_ERROR saying so', async () => {
    const fake = await against((line) =>
      line === 'shuffle' ? { ack: [5, 'unknown command "shuffle"'] } : [],
    );
    const a = await app(fake.port);
    const res = await call(a.t, 'music.mpd.shuffle');
    expect(codeOf(res)).toBe('UPSTREAM_ERROR');
    expect(res.errors[0]).toMatch(/MPD refused "shuffle": unknown command "shuffle".*too old/);
  });

  it('a server that is not MPD: the link says so', async () => {
    const fake = await against(() => [], 'HTTP/1.1 400 Bad Request');
    const a = await app(fake.port, false);
    await vi.waitFor(() =>
      expect(a.link()?.detail).toMatch(
        /127\.0\.0\.1:\d+ is not an MPD server \(it said "HTTP\/1\.1 400 Bad Request"\)/,
      ),
    );
    expect((await call(a.t, 'music.mpd.status')).code).toBe('UNAVAILABLE');
  });
});
