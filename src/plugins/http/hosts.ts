import { z } from '../api/index.ts';
import { BlockList, isIP } from 'node:net';

/** A compiled `http.allow_hosts`. */
export interface HostAllowList {
  permits(url: URL): boolean;
  readonly entries: readonly string[];
}

interface HostEntry {
  host?: string;
  suffix?: string;
  port?: string;
  block?: BlockList;
}

function defaultPort(url: URL): string {
  return url.port || (url.protocol === 'https:' ? '443' : '80');
}

const CIDR = /^([0-9a-f.:]+)\/(\d{1,3})$/;

/**
 * What is wrong with an `http.allow_hosts` entry, or undefined: an IP range must have an IP address
 * and a prefix length the address family has (BlockList would throw a bare RangeError).
 *
 * @example
 * hostEntryProblem('192.168.1.0/33'); // 'the prefix length /33 is out of range: an IPv4 range takes /0 to /32'
 */
export function hostEntryProblem(entry: string): string | undefined {
  const text = entry.trim().toLowerCase();
  if (!text.includes('/')) return undefined;
  const cidr = CIDR.exec(text);
  const version = cidr ? isIP(cidr[1]!) : 0;
  if (!cidr || !version)
    return 'not an IP range such as 192.168.1.0/24 or fd00::/8 (a host name takes no "/")';
  const max = version === 6 ? 128 : 32;
  if (Number(cidr[2]) > max)
    return `the prefix length /${cidr[2]} is out of range: an IPv${version} range takes /0 to /${max}`;
  return undefined;
}

/**
 * A list of `allow_hosts` entries as a config schema: each entry checked by
 * {@link hostEntryProblem}, its problem reported at the entry. Used by `http.allow_hosts` and
 * `mqtt.allow_hosts`, which are written and matched alike.
 *
 * @example
 * HostEntries.parse(['api.example.com', '*.lan', '10.0.0.0/8']);
 */
export const HostEntries = z.array(
  z
    .string()
    .min(1)
    .superRefine((entry, ctx) => {
      const problem = hostEntryProblem(entry);
      if (problem) ctx.addIssue({ code: 'custom', message: problem });
    }),
);

// Entries were checked by the config schema (hostEntryProblem): a range here is a valid one.
function parseEntry(entry: string): HostEntry {
  const text = entry.trim().toLowerCase();
  const cidr = CIDR.exec(text);
  if (cidr && isIP(cidr[1]!)) {
    const block = new BlockList();
    block.addSubnet(cidr[1]!, Number(cidr[2]), isIP(cidr[1]!) === 6 ? 'ipv6' : 'ipv4');
    return { block };
  }
  // [v6]:port, [v6], host:port, host
  const bracket = /^\[([^\]]+)\](?::(\d+))?$/.exec(text);
  const [host, port] = bracket
    ? [bracket[1]!, bracket[2]]
    : isIP(text) === 6
      ? [text, undefined]
      : (text.split(/:(?=\d+$)/) as [string, string?]);
  if (host.startsWith('*.')) return { suffix: host.slice(1), ...(port ? { port } : {}) };
  return { host, ...(port ? { port } : {}) };
}

/**
 * Compiles `http.allow_hosts`. An entry is a host name or IP address (`api.example.com`,
 * `192.168.1.10`, `[::1]`), optionally with a port (`host:8080`; without one any port is allowed),
 * `*.example.com` for every subdomain of example.com (not example.com itself), or an IP range in CIDR
 * form (`192.168.1.0/24`, `fd00::/8`), which matches URLs written with an IP address. Names are
 * compared as written in the URL, case-insensitively, without DNS.
 *
 * @example
 * const allow = compileHostAllowList(['*.example.com', '127.0.0.1:8080']);
 * allow.permits(new URL('https://api.example.com/x')); // true
 * allow.permits(new URL('http://127.0.0.1:9000/')); // false
 */
export function compileHostAllowList(entries: readonly string[]): HostAllowList {
  const parsed = entries.map(parseEntry);
  return {
    entries,
    permits(url) {
      const host = url.hostname.toLowerCase().replace(/^\[|\]$/g, '');
      const port = defaultPort(url);
      const ipVersion = isIP(host);
      return parsed.some((entry) => {
        if (entry.block)
          return ipVersion !== 0 && entry.block.check(host, ipVersion === 6 ? 'ipv6' : 'ipv4');
        if (entry.port && entry.port !== port) return false;
        if (entry.suffix) return host.endsWith(entry.suffix) && host.length > entry.suffix.length;
        return host === entry.host;
      });
    },
  };
}
