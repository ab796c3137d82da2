import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { createConnection, createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { networkInterfaces } from 'node:os';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeApp } from '../../helpers/service.ts';
import type { TestApp } from '../../helpers/service.ts';
import { call } from '../call.ts';

// system's network actions against /proc/net/dev, /sys/class/net and os.networkInterfaces, with
// bytes sent over a real loopback socket in between.

type Counters = Record<string, number | string | null>;

function procNetDev(): Map<string, number[]> {
  const rows = readFileSync('/proc/net/dev', 'utf8').trim().split('\n').slice(2);
  return new Map(
    rows.map((row) => {
      const [name, rest] = row.split(':') as [string, string];
      return [name.trim(), rest.trim().split(/\s+/).map(Number)];
    }),
  );
}

// Sends `bytes` over 127.0.0.1 and resolves once the other end has read them all.
async function sendOverLoopback(bytes: number): Promise<void> {
  const server = createServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  try {
    const received = new Promise<void>((resolve) => {
      server.on('connection', (socket) => {
        let got = 0;
        socket.on('data', (chunk: Buffer) => {
          got += chunk.length;
          if (got >= bytes) resolve();
        });
      });
    });
    const client = createConnection((server.address() as AddressInfo).port, '127.0.0.1');
    client.end(Buffer.alloc(bytes, 7));
    await received;
    client.destroy();
  } finally {
    server.close();
  }
}

let t: TestApp;
beforeAll(async () => {
  t = await makeApp('');
});
afterAll(async () => {
  await t?.close();
});

describe('system: network', () => {
  it('net_io_counters of lo grows by what a loopback socket sends', async () => {
    const before = (await call(t, 'system.net_io_counters', { nic: 'lo' })).output as Counters;
    await sendOverLoopback(256 * 1024);
    const after = (await call(t, 'system.net_io_counters', { nic: 'lo' })).output as Counters;
    const proc = procNetDev().get('lo')!;
    expect(after.nic).toBe('lo');
    // Loopback sends and receives the same bytes.
    for (const key of ['bytes_sent', 'bytes_recv'])
      expect((after[key] as number) - (before[key] as number)).toBeGreaterThanOrEqual(256 * 1024);
    expect(after.packets_recv as number).toBeGreaterThan(before.packets_recv as number);
    // Read just after the call: /proc can only have grown since.
    expect(after.bytes_recv as number).toBeLessThanOrEqual(proc[0]!);
    expect(after.bytes_sent as number).toBeLessThanOrEqual(proc[8]!);
    expect(after.errin as number).toBeLessThanOrEqual(proc[2]!);
  });

  it('net_io_counters per_nic lists the interfaces of /proc/net/dev; the sum has nic null', async () => {
    const per = (await call(t, 'system.net_io_counters', { per_nic: true })).output as Counters[];
    expect(per.map((c) => c.nic)).toEqual([...procNetDev().keys()]);
    const sum = (await call(t, 'system.net_io_counters')).output as Counters;
    expect(sum.nic).toBeNull();
    const lo = per.find((c) => c.nic === 'lo')!;
    expect(sum.bytes_recv as number).toBeGreaterThanOrEqual(lo.bytes_recv as number);
  });

  it('an unknown interface is NOT_FOUND, naming those the host has', async () => {
    const res = await call(t, 'system.net_io_counters', { nic: 'eth99' });
    expect(res.code).toBe('ACTION_FAILED');
    expect(res.reason).toBe('NOT_FOUND');
    const message = res.errors.join(' ');
    expect(message).toContain('system.net_io_counters: no network interface "eth99"');
    for (const name of procNetDev().keys()) expect(message).toContain(name);
    expect((await call(t, 'system.net_addresses', { nic: 'nope0' })).reason).toBe('NOT_FOUND');
    expect((await call(t, 'system.net_stats', { nic: 'nope0' })).reason).toBe('NOT_FOUND');
  });

  it('net_addresses gives each interface its first IPv4 and IPv6 address, as os says', async () => {
    const lo = (await call(t, 'system.net_addresses', { nic: 'lo' })).output as Record<
      string,
      unknown
    >;
    expect(lo).toMatchObject({
      nic: 'lo',
      ipv4_address: '127.0.0.1',
      ipv4_netmask: '255.0.0.0',
      ipv4_broadcast: null, // lo has no IFF_BROADCAST
      mac_address: '00:00:00:00:00:00',
      ptp: null,
    });
    const all = (await call(t, 'system.net_addresses')).output as Array<Record<string, unknown>>;
    const os = networkInterfaces();
    for (const [name, addrs] of Object.entries(os)) {
      const entry = all.find((e) => e.nic === name)!;
      expect(entry, name).toBeDefined();
      expect(entry.ipv4_address).toBe(addrs!.find((a) => a.family === 'IPv4')?.address ?? null);
      expect(entry.ipv6_address).toBe(addrs!.find((a) => a.family === 'IPv6')?.address ?? null);
      expect((entry.addresses as unknown[]).length).toBeGreaterThanOrEqual(addrs!.length);
    }
  });

  it('net_stats has the MTU of /sys/class/net and says lo is up', async () => {
    const out = (await call(t, 'system.net_stats', { nic: 'lo' })).output as Record<
      string,
      unknown
    >;
    expect(out).toMatchObject({
      nic: 'lo',
      is_up: true,
      mtu: Number(readFileSync('/sys/class/net/lo/mtu', 'utf8')),
      duplex: 'NIC_DUPLEX_UNKNOWN',
    });
    const all = (await call(t, 'system.net_stats')).output as Array<{ nic: string }>;
    expect(all.map((s) => s.nic)).toEqual([...procNetDev().keys()]);
  });
});
