import { isIP } from 'node:net';
import { PipitError } from '../../core/errors.ts';
import type { Services } from '../../core/services.ts';
import { compileHostAllowList } from '../http/hosts.ts';
import type { HostAllowList } from '../http/hosts.ts';

/** The host rules for brokers a call names, and the setting they come from (for messages). */
export interface BrokerHostRules {
  allow: HostAllowList;
  setting: 'mqtt.allow_hosts' | 'http.allow_hosts';
}

// http.allow_hosts as the http plugin parsed it (its schema checked every entry), if set.
function httpAllowHosts(services: Services): string[] | undefined {
  const http = services.configValue('http') as { allow_hosts?: unknown } | undefined;
  const hosts = http?.allow_hosts;
  return Array.isArray(hosts) && hosts.every((h) => typeof h === 'string') ? hosts : undefined;
}

/**
 * The rules for the brokers calls name (`host`, `port`): `mqtt.allow_hosts`, else
 * `http.allow_hosts`, so a host the http plugin may not reach is not reached through MQTT either;
 * undefined (any host) when neither is set. Entries are written and matched as in
 * `http.allow_hosts`: names, IP addresses, `*.example.com`, `host:port`, CIDR ranges.
 *
 * @example
 * brokerHostRules(['broker.lan', '10.0.0.0/8'], services); // { allow, setting: 'mqtt.allow_hosts' }
 */
export function brokerHostRules(
  own: readonly string[] | undefined,
  services: Services,
): BrokerHostRules | undefined {
  if (own) return { allow: compileHostAllowList(own), setting: 'mqtt.allow_hosts' };
  const http = httpAllowHosts(services);
  return http ? { allow: compileHostAllowList(http), setting: 'http.allow_hosts' } : undefined;
}

// A host name (letters, digits, "-", "_", ".") or an IP address: nothing a URL or the resolver
// could read differently from the allow-list check ("a@b", "a/b", "a#b").
const HOST_NAME = /^[A-Za-z0-9_.-]+$/;

/**
 * Refuses a broker a call names that the rules do not allow: FORBIDDEN, naming the host, the
 * setting and the fix (INVALID_ARGUMENTS for a host that is not a name or an IP address). The
 * host is matched as the http plugin matches a URL's (`127.1` is 127.0.0.1), with the port.
 *
 * @example
 * checkBrokerHost(rules, '10.0.0.5', 1883, 'mqtt.publish'); // throws FORBIDDEN unless allowed
 */
export function checkBrokerHost(
  rules: BrokerHostRules | undefined,
  host: string,
  port: number,
  action: string,
): void {
  const v6 = isIP(host.replace(/^\[|\]$/g, '')) === 6;
  if (!v6 && !HOST_NAME.test(host))
    throw new PipitError(
      'INVALID_ARGUMENTS',
      `${action}: "host" ${JSON.stringify(host)} is not a host name or an IP address: pass the broker's name (broker.lan) or address (192.168.1.10), and its port in "port"`,
    );
  if (!rules) return;
  const bare = host.replace(/^\[|\]$/g, '');
  const url = new URL(`http://${v6 ? `[${bare}]` : bare}:${port}/`);
  if (!rules.allow.permits(url))
    throw new PipitError(
      'FORBIDDEN',
      `${action}: the MQTT broker ${JSON.stringify(`${host}:${port}`)} is not in ${rules.setting} (${rules.allow.entries.join(', ')}): add it to ${rules.setting === 'mqtt.allow_hosts' ? 'mqtt.allow_hosts' : 'http.allow_hosts (or set mqtt.allow_hosts for MQTT brokers alone)'} in the configuration, or use the configured broker (mqtt.host)`,
    );
}
