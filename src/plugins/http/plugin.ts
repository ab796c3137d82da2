// Written against the public plugin API only, as a plugin package is (npm run lint:layers).
import { definePlugin } from '../api/index.ts';
import { head } from './head.ts';
import { methodActions, request } from './actions.ts';
import { HttpConfig } from './config.ts';
import { compileHostAllowList } from './hosts.ts';
import type { HttpState } from './state.ts';

/**
 * `http`: HTTP requests to other services (also reachable as Platypush's `http.request`, so
 * `http.request.get` is `http.get`). On by default; `http.allow_hosts` narrows where it may go.
 *
 * @example
 * const { status, body } = await run('http.get', { url: 'https://example.com/api', params: { q: 'x' } });
 */
export default definePlugin<HttpConfig, HttpState>({
  ...head,
  summary:
    'HTTP requests (get, post, put, patch, delete, head, options): JSON and form bodies, redirects, timeouts, size limits, opt-in retries; http.allow_hosts narrows the hosts.',
  config: HttpConfig,
  actions: [...methodActions, request],
  init: ({ config }) => ({
    config,
    allow: config.allow_hosts ? compileHostAllowList(config.allow_hosts) : undefined,
  }),
});
