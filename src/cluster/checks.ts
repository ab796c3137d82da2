import type { Redis } from 'ioredis';
import type { RedisLink } from './link.ts';
import type { ClusterKeys } from './wire.ts';

// The commands Pipit sends, each in a form that changes nothing (on a key no instance writes), so
// that a missing ACL permission is found at connection time, named, instead of failing one feature
// later. SUBSCRIBE cannot be tried on this connection: the inbox reports its own refusal.
function probes(keys: ClusterKeys): [command: string, ...args: string[]][] {
  const probe = keys.probe;
  return [
    ['xadd', probe, 'NOMKSTREAM', '*', 'm', 'x'],
    ['xrange', probe, '-', '+', 'COUNT', '1'],
    ['xlen', probe],
    ['xinfo', 'STREAM', probe],
    ['set', probe, 'x', 'XX', 'PX', '1'],
    ['mget', probe],
    ['del', probe],
    ['publish', probe, 'x'],
    ['zadd', probe, 'XX', '0', 'x'],
    ['zrange', probe, '0', '-1'],
    ['zremrangebyscore', probe, '-inf', '-inf'],
    ['zrem', probe, 'x'],
    ['type', probe],
    ['time'],
    // The stream's scripts: EVALSHA first, EVAL when Redis does not have the script yet.
    ['evalsha', '0000000000000000000000000000000000000000', '0'],
    ['eval', 'return 0', '0'],
  ];
}

// The keys whose type Pipit relies on: another application's value there breaks the cluster.
function typedKeys(keys: ClusterKeys): [key: string, type: string, what: string][] {
  return [
    [keys.events, 'stream', 'the event stream'],
    [keys.members, 'zset', 'the index of heartbeats'],
  ];
}

/** The text of a Redis error reply, or undefined. */
function messageOf(err: unknown): string | undefined {
  if (!err) return undefined;
  return err instanceof Error ? err.message : JSON.stringify(err);
}

/** True when `err` is ioredis' "Command timed out". */
export function isTimeout(err: unknown): boolean {
  return /Command timed out/i.test(messageOf(err) ?? '');
}

/**
 * A permission refused by Redis' ACL (`NOPERM`), as one fault of the link named after the command:
 * said once, with the fix, instead of being taken for "Redis is unreachable".
 *
 * @example
 * reportNoPerm(link, err, 'subscribe'); // true when err was NOPERM
 */
export function reportNoPerm(link: RedisLink, err: unknown, command: string): boolean {
  const text = messageOf(err);
  if (!text?.startsWith('NOPERM')) return false;
  link.fault(
    `noperm:${command}`,
    `Redis at ${link.url} refuses the command ${command.toUpperCase()} to this user (${text}): the cluster does not work without it; add it to the user's ACL (ACL SETUSER <user> +${command})`,
  );
  return true;
}

/**
 * What keeps the link honest. At every heartbeat: a PING on the command and subscriber connections
 * (unanswered within the command timeout: the link is marked down, see {@link RedisLink.hung}), and
 * the types of the keys Pipit uses. At every (re)connection, and while a fault lasts: Redis Cluster
 * mode (not supported) and the ACL permissions of every command Pipit sends. Each finding is a
 * fault of the link, logged once with its cause, and `/readyz` answers 503 while it lasts.
 *
 * @example
 * const checks = new LinkChecks(link, keys);
 * link.onChange((up) => up && void checks.onConnect());
 * setInterval(() => void checks.tick(), 2000);
 */
export class LinkChecks {
  readonly #link: RedisLink;
  readonly #keys: ClusterKeys;
  #pinging = false;

  constructor(link: RedisLink, keys: ClusterKeys) {
    this.#link = link;
    this.#keys = keys;
  }

  /** After a (re)connection: the server's mode, the permissions and the key types. */
  async onConnect(): Promise<void> {
    await this.#mode();
    await this.#permissions();
    await this.#types();
  }

  /** At each heartbeat: the PINGs, the key types, and what still failed at the last check. */
  async tick(): Promise<void> {
    if (!this.#link.connected || this.#pinging) return;
    this.#pinging = true;
    try {
      const alive = await Promise.all([
        this.#ping(this.#link.command),
        this.#ping(this.#link.inbox),
      ]);
      if (alive.includes(false)) return;
      if (this.#link.faultOf('cluster')) await this.#mode();
      if (this.#link.state.faults.length) await this.#permissions();
      await this.#types();
    } finally {
      this.#pinging = false;
    }
  }

  async #ping(client: Redis): Promise<boolean> {
    if (client.status !== 'ready') return true;
    try {
      await client.ping();
      return true;
    } catch (err) {
      if (reportNoPerm(this.#link, err, 'ping')) return true;
      if (!isTimeout(err)) return true;
      this.#link.hung(
        `Redis did not answer a PING within ${this.#link.commandTimeoutMs / 1000} s: it hangs, or the network dropped without closing the connection`,
      );
      return false;
    }
  }

  async #mode(): Promise<void> {
    let info: string;
    try {
      info = await this.#link.command.info('cluster');
    } catch (err) {
      reportNoPerm(this.#link, err, 'info');
      return;
    }
    this.#link.fault('noperm:info', null);
    const clustered = /^cluster_enabled:1\s*$/m.test(info);
    this.#link.fault(
      'cluster',
      clustered
        ? `Redis at ${this.#link.url} runs in cluster mode (cluster_enabled:1): Pipit does not support Redis Cluster (its keys live on different nodes); point redis.url at a standalone Redis`
        : null,
    );
  }

  async #permissions(): Promise<void> {
    const pipeline = this.#link.command.pipeline();
    const list = probes(this.#keys);
    for (const [command, ...args] of list) pipeline.call(command, ...args);
    const results = await pipeline.exec().catch(() => null);
    if (!results) return;
    list.forEach(([command], i) => {
      const err = results[i]?.[0];
      if (!reportNoPerm(this.#link, err, command)) this.#link.fault(`noperm:${command}`, null);
    });
  }

  async #types(): Promise<void> {
    const list = typedKeys(this.#keys);
    const pipeline = this.#link.command.pipeline();
    for (const [key] of list) pipeline.type(key);
    const results = await pipeline.exec().catch(() => null);
    if (!results) return;
    list.forEach(([key, want, what], i) => {
      const [err, type] = results[i] ?? [];
      if (err) return;
      this.#link.fault(
        `type:${key}`,
        type === 'none' || type === want
          ? null
          : `${key} holds a ${String(type)}, not a ${want} (${what}): another application uses this key (WRONGTYPE); give this cluster another redis.key_prefix, or delete the key if it is left over`,
      );
    });
  }
}
