import { describe, expect, it } from 'vitest';
import { buildCurl, shellQuote } from '../../web/src/lib/curl.ts';
import {
  addRecentRun,
  loadRecentRuns,
  RECENT_RUNS_KEY,
  RECENT_RUNS_MAX,
} from '../../web/src/lib/recent-runs.ts';
import type { KeyValueStorage, RecentRun } from '../../web/src/lib/recent-runs.ts';

describe('curl snippet', () => {
  it('builds a POST /execute with the token from the environment', () => {
    expect(buildCurl({ baseUrl: 'http://pi:8008/', action: 'utils.echo', args: { a: 1 } })).toBe(
      [
        "curl -X POST 'http://pi:8008/execute' \\",
        "  -H 'Content-Type: application/json' \\",
        '  -H "Authorization: Bearer $PIPIT_TOKEN" \\',
        `  -d '{"type":"request","action":"utils.echo","args":{"a":1}}'`,
      ].join('\n'),
    );
  });

  it('embeds a given token, leaves out empty args and quotes single quotes for the shell', () => {
    const curl = buildCurl({
      baseUrl: 'http://h',
      action: 'logger.info',
      token: 'abc.def.ghi',
      args: {},
    });
    expect(curl).toContain("-H 'Authorization: Bearer abc.def.ghi'");
    expect(curl).toContain(`-d '{"type":"request","action":"logger.info"}'`);
    expect(shellQuote("it's")).toBe(`'it'\\''s'`);
    expect(
      buildCurl({ baseUrl: 'http://h', action: 'logger.info', args: { msg: "it's" } }),
    ).toContain(`"msg":"it'\\''s"`);
  });
});

function memoryStorage(initial?: string): KeyValueStorage & { data: Map<string, string> } {
  const data = new Map<string, string>(initial ? [[RECENT_RUNS_KEY, initial]] : []);
  return { data, getItem: (k) => data.get(k) ?? null, setItem: (k, v) => void data.set(k, v) };
}

const run = (action: string, args: Record<string, unknown> = {}, at = 1): RecentRun => ({
  action,
  args,
  at,
  ok: true,
  durationMs: 5,
});

describe('recent runs store', () => {
  it('keeps runs newest first and moves a repeated request to the top', () => {
    const storage = memoryStorage();
    addRecentRun(storage, run('utils.echo', { a: 1 }, 1));
    addRecentRun(storage, run('utils.sleep', { seconds: 1 }, 2));
    const runs = addRecentRun(storage, run('utils.echo', { a: 1 }, 3));
    expect(runs.map((r) => [r.action, r.at])).toEqual([
      ['utils.echo', 3],
      ['utils.sleep', 2],
    ]);
    expect(loadRecentRuns(storage)).toEqual(runs);
  });

  it(`keeps at most ${RECENT_RUNS_MAX}`, () => {
    const storage = memoryStorage();
    for (let i = 0; i < RECENT_RUNS_MAX + 5; i++)
      addRecentRun(storage, run('utils.echo', { i }, i));
    const runs = loadRecentRuns(storage);
    expect(runs).toHaveLength(RECENT_RUNS_MAX);
    expect(runs[0]!.args).toEqual({ i: RECENT_RUNS_MAX + 4 });
  });

  it('survives unreadable or foreign data and a storage that refuses to save', () => {
    expect(loadRecentRuns(memoryStorage('not json'))).toEqual([]);
    expect(loadRecentRuns(memoryStorage('[{"action":1},null]'))).toEqual([]);
    expect(loadRecentRuns(undefined)).toEqual([]);
    const full: KeyValueStorage = {
      getItem: () => null,
      setItem: () => {
        throw new Error('QuotaExceededError');
      },
    };
    expect(addRecentRun(full, run('utils.echo'))).toHaveLength(1);
  });
});
