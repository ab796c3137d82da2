import { z } from '../api/index.ts';
import { isUp, nicAddresses, nicNames, pickNic, readNetCounters, readNicInfo } from './net.ts';
import type { NetCounters } from './net.ts';
import { systemAction } from './platform.ts';

const nicParam = z
  .string()
  .min(1)
  .optional()
  .describe('one network interface (eth0, wlan0, lo); none: all of them');

const countersShape = z.object({
  bytes_sent: z.number(),
  bytes_recv: z.number(),
  packets_sent: z.number(),
  packets_recv: z.number(),
  errin: z.number(),
  errout: z.number(),
  dropin: z.number(),
  dropout: z.number(),
  nic: z.string().nullable(),
});

/**
 * system.net_io_counters: bytes, packets, errors and drops since boot.
 *
 * @example
 * // {action: 'system.net_io_counters', args: {nic: 'eth0'}} → {bytes_sent: 22830768, bytes_recv: ..., nic: 'eth0'}
 */
export const netIoCounters = systemAction({
  name: 'net_io_counters',
  summary: 'Bytes and packets sent and received, errors and drops, for all interfaces or each.',
  params: {
    nic: nicParam,
    per_nic: z.boolean().default(false).describe('one entry per interface instead of the sum'),
  },
  result: z.union([countersShape, z.array(countersShape)]),
  run: async ({ nic, per_nic }, { state }) => {
    const counters = await readNetCounters(state.roots);
    if (nic) return { ...pickNic('system.net_io_counters', counters, nic), nic };
    if (per_nic) return [...counters].map(([name, c]) => ({ ...c, nic: name }));
    const sum: NetCounters = {
      bytes_sent: 0,
      bytes_recv: 0,
      packets_sent: 0,
      packets_recv: 0,
      errin: 0,
      errout: 0,
      dropin: 0,
      dropout: 0,
    };
    for (const c of counters.values())
      for (const key of Object.keys(sum) as (keyof NetCounters)[]) sum[key] += c[key];
    return { ...sum, nic: null };
  },
});

/**
 * system.net_addresses: each interface's addresses, in Platypush's shape.
 *
 * @example
 * // {action: 'system.net_addresses', args: {nic: 'lo'}}
 * // → {nic: 'lo', ipv4_address: '127.0.0.1', ipv4_netmask: '255.0.0.0', ipv6_address: '::1', ...}
 */
export const netAddresses = systemAction({
  name: 'net_addresses',
  summary: 'The IPv4, IPv6 and MAC addresses of each network interface (or of one).',
  description:
    'ipv4_* and ipv6_* hold the first address of each family; `addresses` lists them all (family, address, netmask, broadcast).',
  params: { nic: nicParam },
  result: z.union([z.record(z.string(), z.unknown()), z.array(z.record(z.string(), z.unknown()))]),
  run: async ({ nic }, { state }) => {
    const names = await nicNames(state.roots);
    if (nic) {
      pickNic('system.net_addresses', new Map(names.map((n) => [n, n])), nic);
      return nicAddresses(state.roots, nic);
    }
    return Promise.all(names.map((name) => nicAddresses(state.roots, name)));
  },
});

const statsShape = z.object({
  nic: z.string(),
  is_up: z.boolean(),
  duplex: z.string(),
  speed: z.number(),
  mtu: z.number(),
});

/**
 * system.net_stats: each interface's state, as Platypush's net_stats (psutil's net_if_stats).
 *
 * @example
 * // {action: 'system.net_stats', args: {nic: 'lo'}}
 * // → {nic: 'lo', is_up: true, duplex: 'NIC_DUPLEX_UNKNOWN', speed: 0, mtu: 65536}
 */
export const netStats = systemAction({
  name: 'net_stats',
  summary: 'Whether each network interface is up, its duplex, speed (Mbps, 0 if unknown) and MTU.',
  params: { nic: nicParam },
  result: z.union([statsShape, z.array(statsShape)]),
  run: async ({ nic }, { state }) => {
    const counters = await readNetCounters(state.roots);
    const stats = async (name: string) => {
      const info = await readNicInfo(state.roots, name);
      return {
        nic: name,
        is_up: isUp(info),
        duplex: `NIC_DUPLEX_${info.duplex.toUpperCase()}`,
        speed: info.speed,
        mtu: info.mtu,
      };
    };
    if (nic) {
      pickNic('system.net_stats', counters, nic);
      return stats(nic);
    }
    return Promise.all([...counters.keys()].map(stats));
  },
});

export const NET_ACTIONS = [netIoCounters, netAddresses, netStats];
