import { isIP } from 'node:net';
import type { FastifyRequest } from 'fastify';
import { PipitError } from '../../core/errors.ts';

const DEFAULT_PORTS: Record<string, string> = { 'http:': '80', 'https:': '443' };

const shown = (value: string) => JSON.stringify(value.slice(0, 100));

/** Whether `origin` (an Origin header) names the host:port the request was sent to. */
function sameOrigin(origin: string, host: string): boolean {
  let url: URL;
  try {
    url = new URL(origin); // "null" (sandboxed frames, file: pages) throws: never same-origin
  } catch {
    return false;
  }
  if (url.origin !== origin.toLowerCase().replace(/\/$/, '')) return false;
  const wanted = host.toLowerCase();
  return wanted === url.host || wanted === `${url.hostname}:${DEFAULT_PORTS[url.protocol] ?? ''}`;
}

/**
 * Refuses a cross-site `POST /register` or `/login`: an HTML form on any page a person visits could
 * otherwise register the first user, or log the visitor into the attacker's account (login CSRF).
 * A browser says where a request comes from: `Origin` must name this server (its host:port, as the
 * request's Host, or X-Forwarded-Host under `trust_proxy`) or be one of `backend.http.cors_origins`,
 * and `Sec-Fetch-Site` must be `same-origin` or `none` (an address typed in). A request with neither
 * header (curl, the CLI, Platypush's Python clients) is not from a browser and passes.
 *
 * @example
 * refuseCrossSite(req, 'registration', service.config.http?.cors_origins ?? []);
 */
export function refuseCrossSite(
  req: FastifyRequest,
  what: 'registration' | 'login',
  corsOrigins: readonly string[],
): void {
  const origin = req.headers.origin;
  if (origin !== undefined && corsOrigins.includes(origin)) return;
  const fix = `${what === 'login' ? 'log in' : 'register'} from the web UI's own pages (or list a trusted site in backend.http.cors_origins)`;
  // Under trust_proxy, req.host is the proxy's X-Forwarded-Host (the name the browser used).
  const host = req.host ?? '';
  if (origin !== undefined && !sameOrigin(origin, host)) {
    throw new PipitError(
      'FORBIDDEN',
      `cross-site ${what} refused: the request comes from Origin ${shown(origin)}, not from this server (${shown(host)}); ${fix}`,
    );
  }
  const site = req.headers['sec-fetch-site'];
  if (site !== undefined && site !== 'same-origin' && site !== 'none') {
    throw new PipitError(
      'FORBIDDEN',
      `cross-site ${what} refused: the browser says the request comes from another site (Sec-Fetch-Site: ${shown(String(site))}); ${fix}`,
    );
  }
}

/**
 * Whether a Host header names this machine in a way a web page cannot take over by DNS rebinding:
 * an IP address (v4, or v6 in brackets), `localhost` or a name under `.localhost` (which browsers
 * resolve to loopback themselves), or a name in `backend.http.allowed_hosts`. A request without a
 * Host (HTTP/1.0) is not from a browser and passes.
 *
 * @example
 * hostAllowed('192.168.1.20:8008', []); // true
 * hostAllowed('evil.example:8008', []); // false
 */
export function hostAllowed(host: string | undefined, allowedHosts: readonly string[]): boolean {
  if (!host) return true;
  const name = hostName(host);
  if (isIP(name) !== 0) return true;
  if (name === 'localhost' || name.endsWith('.localhost')) return true;
  return allowedHosts.some((allowed) => allowed.toLowerCase() === name);
}

// "Example.COM.:8008" -> "example.com"; "[::1]:8008" -> "::1".
function hostName(host: string): string {
  let name = host.trim().toLowerCase();
  if (name.startsWith('[')) {
    const end = name.indexOf(']');
    return end < 0 ? name : name.slice(1, end);
  }
  const colon = name.lastIndexOf(':');
  if (colon >= 0) name = name.slice(0, colon);
  return name.endsWith('.') ? name.slice(0, -1) : name;
}

/**
 * Refuses registration through a Host that is not {@link hostAllowed}: with DNS rebinding, a web
 * page on the attacker's name reaches this server as that name, and could register the first user,
 * take the session and run anything.
 *
 * @example
 * refuseUnknownHost(req, service.config.http?.allowed_hosts ?? []);
 */
export function refuseUnknownHost(req: FastifyRequest, allowedHosts: readonly string[]): void {
  const host = req.host as string | undefined;
  if (hostAllowed(host, allowedHosts)) return;
  const name = hostName(host!);
  throw new PipitError(
    'FORBIDDEN',
    `registration refused: this server was reached as ${shown(host!)}, which is not an IP address, localhost or a name in backend.http.allowed_hosts (a web page could otherwise claim this instance through DNS rebinding); open the web UI by IP address or localhost, add ${shown(name)} to backend.http.allowed_hosts, or create the user with "pipit user add <name>"`,
  );
}
