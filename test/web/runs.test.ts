import { describe, expect, it } from 'vitest';
import {
  appendOlder,
  callerText,
  compareRunIds,
  hasMasked,
  MAX_SHOWN,
  mergeNewest,
  parseRunFilters,
  runBadges,
  runDuration,
  runFiltersQuery,
} from '../../web/src/lib/runs.ts';
import type { StoredRun } from '../../web/src/lib/runs.ts';

function run(id: number | string, extra: Partial<StoredRun> = {}): StoredRun {
  return {
    id: String(id),
    parent_id: null,
    root_id: String(id),
    kind: 'action',
    name: 'utils.echo',
    transport: 'http',
    caller: null,
    trigger: null,
    args: {},
    started_at: new Date(0).toISOString(),
    duration_ms: 1,
    outcome: 'ok',
    error_code: null,
    errors: [],
    replay_of: null,
    steps: 0,
    ...extra,
  };
}

const ids = (runs: StoredRun[]) => runs.map((r) => Number(r.id));

describe('Runs filters in the address', () => {
  it('reads the known filters, trimmed, and ignores the rest', () => {
    expect(
      parseRunFilters('?outcome=failed&transport=cron&text=%20door%20&x=1&hook=&cron=Nightly'),
    ).toEqual({ outcome: 'failed', transport: 'cron', text: 'door', cron: 'Nightly' });
    expect(parseRunFilters('?outcome=maybe')).toEqual({});
    expect(parseRunFilters('')).toEqual({});
  });

  it('writes them in one order, so that equal filters give equal queries', () => {
    expect(runFiltersQuery({ cron: 'Nightly', outcome: 'failed' })).toBe(
      '?outcome=failed&cron=Nightly',
    );
    expect(runFiltersQuery({ action: '', text: '  ' })).toBe('');
    const query = runFiltersQuery({ event_id: 'a b&c', action: 'procedure.x' });
    expect(parseRunFilters(query)).toEqual({ event_id: 'a b&c', action: 'procedure.x' });
  });
});

describe('the live list', () => {
  it('orders ids by number, as the server does', () => {
    expect(compareRunIds('999', '1000')).toBe(-1);
    expect(compareRunIds('1001', '1000')).toBe(1);
    expect(compareRunIds('1000', '1000')).toBe(0);
  });

  it('puts new runs on top and keeps the older pages', () => {
    let view = mergeNewest({ runs: [], more: false }, [run(3), run(2)], true);
    expect(view).toEqual({ runs: [run(3), run(2)], more: true });
    view = appendOlder(view, [run(1)], null);
    expect(ids(view.runs)).toEqual([3, 2, 1]);
    expect(view.more).toBe(false);
    const updated = run(3, { outcome: 'failed' });
    view = mergeNewest(view, [run(10), run(4), updated], false);
    expect(ids(view.runs)).toEqual([10, 4, 3, 2, 1]);
    expect(view.runs[2]!.outcome).toBe('failed');
  });

  it('starts again from a full first page that does not reach the list (a hole otherwise)', () => {
    const view = mergeNewest({ runs: [run(2), run(1)], more: false }, [run(9), run(8)], true);
    expect(view).toEqual({ runs: [run(9), run(8)], more: true });
  });

  it(`holds at most ${MAX_SHOWN} runs, the newest`, () => {
    const many = Array.from({ length: MAX_SHOWN }, (_, i) => run(1000 + i)).reverse();
    const view = mergeNewest(
      { runs: many, more: false },
      [run(5000), run(1000 + MAX_SHOWN - 1)],
      true,
    );
    expect(view.runs).toHaveLength(MAX_SHOWN);
    expect(view.runs[0]!.id).toBe('5000');
    expect(view.more).toBe(true);
  });
});

describe('how a run is shown', () => {
  it('labels what it is and what started it', () => {
    expect(runBadges({ kind: 'action', transport: 'http' })).toEqual(['http']);
    expect(runBadges({ kind: 'cron', transport: 'cron' })).toEqual(['cron']);
    expect(runBadges({ kind: 'hook', transport: 'webhook' })).toEqual(['hook', 'webhook']);
    expect(runBadges({ kind: 'procedure', transport: 'replay' })).toEqual(['procedure', 'replay']);
  });

  it('names the caller, never more than the token name', () => {
    expect(callerText(null)).toBe('—');
    expect(callerText({ user: 'ada', via: 'session' })).toBe('ada');
    expect(callerText({ user: 'ada', via: 'token', token: 'ci' })).toBe('ada (token “ci”)');
  });

  it('says "< 1 ms" for the quick ones', () => {
    expect(runDuration(0.07)).toBe('< 1 ms');
    expect(runDuration(12.4)).toBe('12 ms');
    expect(runDuration(2400)).toBe('2.40 s');
  });

  it('finds masked secrets at any depth', () => {
    expect(hasMasked({ a: { b: ['x', '[redacted]'] } })).toBe(true);
    expect(hasMasked({ a: 'redacted' })).toBe(false);
  });
});
