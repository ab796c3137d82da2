// The fuzz campaign's HTTP judges on answers they must accept and answers they must flag.
import { describe, expect, it } from 'vitest';
import type { HttpInput } from './generators/common.ts';
import { judgeExecute, judgeHook } from './harness/http.ts';

const html = { 'content-type': 'text/html; charset=utf-8', etag: 'W/"1f5-1a21aec0a7c"' };
const navigation = (path: string, headers: Record<string, string> = {}): HttpInput => ({
  label: 'request/other',
  method: 'GET',
  path,
  auth: 'valid',
  headers: { accept: 'text/html', ...headers },
  body: undefined,
});
const answer = (status: number, headers: Record<string, string>, body = '') => ({
  status,
  headers,
  body: Buffer.from(body),
});

describe('fuzz judges: a browser navigation that gets the web UI', () => {
  it('accepts the page, and 304 with no body when If-None-Match matched', () => {
    for (const judge of [judgeExecute, judgeHook]) {
      const path = judge === judgeExecute ? '/execute' : '/hook//fuzz';
      expect(judge(navigation(path), answer(200, html, '<!doctype html>'))).toEqual({
        status: '200 (web UI page)',
        violations: [],
      });
      expect(judge(navigation(path, { 'if-none-match': '*' }), answer(304, html))).toEqual({
        status: '304 (web UI page)',
        violations: [],
      });
    }
  });

  it('flags a 304 that nothing asked for, or one with a body', () => {
    expect(judgeExecute(navigation('/execute'), answer(304, html)).violations).not.toEqual([]);
    expect(
      judgeExecute(navigation('/execute', { 'if-none-match': '*' }), answer(304, html, 'x'))
        .violations,
    ).not.toEqual([]);
  });
});
