import { readdir } from 'node:fs/promises';
import { networkInterfaces } from 'node:os';
import { join } from 'node:path';
import { didYouMean, PipitError } from '../api/index.ts';
import { readInt, readOptional, readText } from './host.ts';
import type { Roots } from './host.ts';

/** psutil's net_io_counters fields. */
export interface NetCounters {
  bytes_sent: number;
  bytes_recv: number;
  packets_sent: number;
  packets_recv: number;
  errin: number;
  errout: number;
  dropin: number;
  dropout: number;
}

/**
 * Each interface's counters since boot, from /proc/net/dev.
 *
 * @example
 * (await readNetCounters(HOST_ROOTS)).get('lo')?.bytes_recv; // 2898996110
 */
export async function readNetCounters(roots: Roots): Promise<Map<string, NetCounters>> {
  const out = new Map<string, NetCounters>();
  for (const line of (await readText(roots.proc, 'net/dev')).split('\n').slice(2)) {
    const colon = line.lastIndexOf(':');
    if (colon < 0) continue;
    const f = line
      .slice(colon + 1)
      .trim()
      .split(/\s+/)
      .map(Number);
    out.set(line.slice(0, colon).trim(), {
      bytes_sent: f[8] ?? 0,
      bytes_recv: f[0] ?? 0,
      packets_sent: f[9] ?? 0,
      packets_recv: f[1] ?? 0,
      errin: f[2] ?? 0,
      errout: f[10] ?? 0,
      dropin: f[3] ?? 0,
      dropout: f[11] ?? 0,
    });
  }
  return out;
}

/**
 * The entry of `nic` in a map of interfaces, or NOT_FOUND naming those the host has.
 *
 * @example
 * pickNic('system.net_io_counters', counters, 'eth9'); // throws: no network interface "eth9"...
 */
export function pickNic<T>(action: string, byNic: Map<string, T>, nic: string): T {
  const found = byNic.get(nic);
  if (found !== undefined) return found;
  const names = [...byNic.keys()];
  throw new PipitError(
    'NOT_FOUND',
    `${action}: no network interface "${nic}" (this host has: ${names.join(', ') || 'none'})${didYouMean(nic, names)}`,
    { details: { nic, interfaces: names } },
  );
}

// Flags of /sys/class/net/<nic>/flags (linux/if.h).
const IFF_UP = 0x1;
const IFF_BROADCAST = 0x2;

/** What /sys/class/net says of an interface. */
export interface NicInfo {
  flags: number;
  operstate: string;
  mtu: number;
  speed: number;
  duplex: 'full' | 'half' | 'unknown';
  mac: string | null;
  macBroadcast: string | null;
}

/**
 * Reads /sys/class/net/<nic>: flags, MTU, speed (Mbps, 0 when unknown), duplex, MAC addresses.
 *
 * @example
 * (await readNicInfo(HOST_ROOTS, 'lo')).mtu; // 65536
 */
export async function readNicInfo(roots: Roots, nic: string): Promise<NicInfo> {
  const dir = join('class/net', nic);
  const speed = (await readInt(roots.sys, `${dir}/speed`)) ?? 0;
  const duplex = (await readOptional(roots.sys, `${dir}/duplex`))?.trim();
  const text = async (file: string) =>
    (await readOptional(roots.sys, `${dir}/${file}`))?.trim() || null;
  return {
    flags: parseInt((await readOptional(roots.sys, `${dir}/flags`)) ?? '0', 16) || 0,
    operstate: (await text('operstate')) ?? 'unknown',
    mtu: (await readInt(roots.sys, `${dir}/mtu`)) ?? 0,
    speed: speed > 0 ? speed : 0,
    duplex: duplex === 'full' || duplex === 'half' ? duplex : 'unknown',
    mac: await text('address'),
    macBroadcast: await text('broadcast'),
  };
}

/**
 * Whether the interface is up and running, as psutil's `isup` (IFF_RUNNING): /sys's flags leave
 * RUNNING out, which the kernel sets for an interface that is up with an operational state of
 * "up" or "unknown" (as lo's).
 */
export const isUp = (info: NicInfo) =>
  (info.flags & IFF_UP) !== 0 && (info.operstate === 'up' || info.operstate === 'unknown');

/** The interfaces the host has: those with an address (os.networkInterfaces) and all of /sys. */
export async function nicNames(roots: Roots): Promise<string[]> {
  const names = new Set(Object.keys(networkInterfaces()));
  const sysNames = await readdir(join(roots.sys, 'class/net')).catch(() => [] as string[]);
  for (const name of sysNames.sort()) names.add(name);
  return [...names];
}

function ipv4Broadcast(address: string, netmask: string): string {
  const octets = (ip: string) => ip.split('.').map(Number);
  const mask = octets(netmask);
  return octets(address)
    .map((o, i) => (o | (~(mask[i] ?? 0) & 255)) >>> 0)
    .join('.');
}

/**
 * Platypush's net_addresses entry of one interface: the first IPv4 and IPv6 address flattened
 * (`ipv4_address`, `ipv4_netmask`, `ipv4_broadcast`...), the MAC, and every address in
 * `addresses` (psutil's net_if_addrs: family, address, netmask, broadcast).
 *
 * @example
 * await nicAddresses(HOST_ROOTS, 'lo'); // {nic: 'lo', ipv4_address: '127.0.0.1', ipv4_netmask: '255.0.0.0', ...}
 */
export async function nicAddresses(roots: Roots, nic: string): Promise<Record<string, unknown>> {
  const info = await readNicInfo(roots, nic);
  const broadcasts = (info.flags & IFF_BROADCAST) !== 0;
  const addresses = (networkInterfaces()[nic] ?? []).map((a) => ({
    family: a.family === 'IPv4' ? 'AF_INET' : 'AF_INET6',
    address: a.address,
    netmask: a.netmask,
    broadcast: a.family === 'IPv4' && broadcasts ? ipv4Broadcast(a.address, a.netmask) : null,
  }));
  if (info.mac)
    addresses.push({
      family: 'AF_PACKET',
      address: info.mac,
      netmask: '',
      broadcast: info.macBroadcast,
    });
  const v4 = addresses.find((a) => a.family === 'AF_INET');
  const v6 = addresses.find((a) => a.family === 'AF_INET6');
  return {
    nic,
    ipv4_address: v4?.address ?? null,
    ipv4_netmask: v4?.netmask ?? null,
    ipv4_broadcast: v4?.broadcast ?? null,
    ipv6_address: v6?.address ?? null,
    ipv6_netmask: v6?.netmask ?? null,
    ipv6_broadcast: null,
    mac_address: info.mac,
    mac_broadcast: info.macBroadcast,
    ptp: null,
    addresses: addresses.map((a) => (a.family === 'AF_PACKET' ? { ...a, netmask: null } : a)),
  };
}
