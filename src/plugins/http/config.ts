import { z } from '../api/index.ts';
import { HostEntries } from './hosts.ts';

/** Default of `http.timeout_seconds`: how long one attempt (redirects and body included) may take. */
export const DEFAULT_TIMEOUT_SECONDS = 30;

/** Default of `http.max_response_bytes`: the largest response body read (after decompression). */
export const DEFAULT_MAX_RESPONSE_BYTES = 10 * 1024 * 1024;

/** Default of `http.max_redirects`. */
export const DEFAULT_MAX_REDIRECTS = 10;

/**
 * The `http:` (alias `http.request:`) configuration section. The plugin is on without it.
 *
 * @example
 * HttpConfig.parse({ allow_hosts: ['api.example.com', '*.lan', '192.168.1.0/24'] }).timeout_seconds; // 30
 */
export const HttpConfig = z.strictObject({
  allow_hosts: HostEntries.optional().describe(
    'hosts requests may go to (redirects included): "api.example.com", "*.example.com" (its subdomains), "host:8080", "192.168.1.0/24"; absent = any host',
  ),
  timeout_seconds: z
    .number()
    .positive()
    .max(3600)
    .default(DEFAULT_TIMEOUT_SECONDS)
    .describe('how long one request may take when the call gives no timeout'),
  max_response_bytes: z
    .number()
    .int()
    .min(1024)
    .max(1024 * 1024 * 1024)
    .default(DEFAULT_MAX_RESPONSE_BYTES)
    .describe('the largest response body read; a larger one is an error'),
  max_redirects: z
    .number()
    .int()
    .min(0)
    .max(50)
    .default(DEFAULT_MAX_REDIRECTS)
    .describe('redirects followed before the request fails'),
  max_retry_after_seconds: z
    .number()
    .min(0)
    .max(3600)
    .default(60)
    .describe('the longest Retry-After waited out when retries are on; a longer one fails at once'),
  user_agent: z
    .string()
    .min(1)
    .default('Pipit')
    .describe('User-Agent sent when the call sets none'),
});
export type HttpConfig = z.output<typeof HttpConfig>;
