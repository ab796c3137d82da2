import { once } from 'node:events';
import { createServer } from 'node:net';
import type { AddressInfo, Server, Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../../helpers/net.ts';
import { makeApp, tempDir } from '../../helpers/service.ts';
import type { TestApp } from '../../helpers/service.ts';
import { startBroker } from './broker.ts';
import type { Broker } from './broker.ts';
import { call, nextMessage, otherConnections, outsideClient } from './helpers.ts';

/** A TCP server on 127.0.0.1 that counts connections and treats each as `onSocket` says. */
async function tcpServer(
  onSocket: (socket: Socket) => void,
): Promise<{ port: number; connections: () => number; close: () => Promise<void> }> {
  const sockets = new Set<Socket>();
  let count = 0;
  const server: Server = createServer((socket) => {
    count++;
    sockets.add(socket);
    socket.on('error', () => undefined);
    socket.on('close', () => sockets.delete(socket));
    onSocket(socket);
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return {
    port: (server.address() as AddressInfo).port,
    connections: () => count,
    async close() {
      for (const s of sockets) s.destroy();
      server.close();
      await once(server, 'close');
    },
  };
}

describe('mqtt: brokers named in a call follow the host rules', () => {
  let broker: Broker;
  let own: TestApp;
  let viaHttp: TestApp;
  let other: Awaited<ReturnType<typeof tcpServer>>;

  beforeAll(async () => {
    broker = await startBroker();
    other = await tcpServer((socket) => socket.destroy());
    own = await makeApp(`mqtt:\n  allow_hosts: ['127.0.0.1:${broker.port}']\n`);
    viaHttp = await makeApp(`http:\n  allow_hosts: [api.example.com]\n`);
  });
  afterAll(async () => {
    await own?.close();
    await viaHttp?.close();
    await other?.close();
    await broker?.stop();
  });

  it('publishes to a broker mqtt.allow_hosts allows, and refuses others before connecting', async () => {
    const outside = await outsideClient(broker.url);
    try {
      await outside.subscribeAsync('allowed/#');
      const got = nextMessage(outside, 'allowed/x');
      const ok = await call(own, 'mqtt.publish', {
        topic: 'allowed/x',
        msg: 'hi',
        host: '127.0.0.1',
        port: broker.port,
      });
      expect(ok.errors).toEqual([]);
      expect((await got).payload).toBe('hi');
    } finally {
      await outside.endAsync();
    }
    for (const action of ['mqtt.publish', 'mqtt.subscribe'] as const) {
      const res = await call(own, action, {
        topic: 'x',
        ...(action === 'mqtt.publish' ? { msg: 'x' } : {}),
        host: '127.0.0.1',
        port: other.port,
      });
      expect(res.reason, action).toBe('FORBIDDEN');
      expect(res.errors[0]).toBe(
        `${action}: the MQTT broker "127.0.0.1:${other.port}" is not in mqtt.allow_hosts (127.0.0.1:${broker.port}): add it to mqtt.allow_hosts in the configuration, or use the configured broker (mqtt.host)`,
      );
    }
    // Another spelling of an address is the address; a name is not its address.
    const spelled = await call(own, 'mqtt.publish', { topic: 'x', msg: 'x', host: '127.1' });
    expect(spelled.reason).toBe('FORBIDDEN');
    expect(
      (
        await call(own, 'mqtt.publish', {
          topic: 'x',
          msg: 'x',
          host: 'localhost',
          port: broker.port,
        })
      ).reason,
    ).toBe('FORBIDDEN');
    expect(other.connections()).toBe(0);
    expect(otherConnections(own)).toEqual([]);
  });

  it('follows http.allow_hosts when mqtt.allow_hosts is not set', async () => {
    const res = await call(viaHttp, 'mqtt.publish', {
      topic: 'x',
      msg: 'x',
      host: '127.0.0.1',
      port: other.port,
    });
    expect(res.reason).toBe('FORBIDDEN');
    expect(res.errors[0]).toMatch(
      /is not in http\.allow_hosts \(api\.example\.com\): add it to http\.allow_hosts \(or set mqtt\.allow_hosts for MQTT brokers alone\)/,
    );
    expect(other.connections()).toBe(0);
  });

  it('refuses a host that is not a name or an address', async () => {
    for (const host of ['a@127.0.0.1', 'x/y', 'h#1']) {
      const res = await call(own, 'mqtt.publish', { topic: 'x', msg: 'x', host });
      expect(res.reason, host).toBe('INVALID_ARGUMENTS');
      expect(res.errors[0]).toMatch(/"host" .* is not a host name or an IP address/);
    }
  });

  it('refuses a bad entry in mqtt.allow_hosts at load, naming it', async () => {
    const tmp = tempDir();
    try {
      await expect(
        makeApp(`mqtt:\n  allow_hosts: ['10.0.0.0/40']\n`, { dir: tmp.dir }),
      ).rejects.toThrow(/allow_hosts.*prefix length \/40 is out of range/s);
    } finally {
      tmp.cleanup();
    }
  });
});

// Without host rules a call may name any broker, but may not learn from the error which ports are
// open: refused, closed at once, silent and not-MQTT all read the same.
describe('mqtt: connection errors for a broker named in a call', () => {
  let t: TestApp;
  const servers: Array<Awaited<ReturnType<typeof tcpServer>>> = [];

  beforeAll(async () => {
    t = await makeApp('');
    servers.push(await tcpServer((socket) => socket.destroy()));
    servers.push(await tcpServer(() => undefined));
    servers.push(
      await tcpServer((socket) =>
        socket.end('HTTP/1.1 400 Bad Request\r\nConnection: close\r\n\r\n'),
      ),
    );
  });
  afterAll(async () => {
    await t?.close();
    for (const s of servers) await s.close();
  });

  it('says the same whether the port is closed, drops, stays silent or speaks another protocol', async () => {
    const closed = await freePort();
    const messages: string[] = [];
    for (const port of [closed, ...servers.map((s) => s.port)]) {
      const res = await call(t, 'mqtt.publish', {
        topic: 'x',
        msg: 'x',
        host: '127.0.0.1',
        port,
        timeout: 1,
      });
      expect(res.code, String(port)).toBe('UNAVAILABLE');
      messages.push(res.errors[0]!.replace(`:${port}:`, ':PORT:'));
    }
    expect(new Set(messages).size).toBe(1);
    expect(messages[0]).toBe(
      'mqtt.publish: cannot connect to the MQTT broker 127.0.0.1:PORT: no MQTT broker there accepted a connection from this client (the service log has the cause)',
    );
  });

  it('shows the same in mqtt.status for a subscription on such a broker', async () => {
    const closed = await freePort();
    const sub = await call(t, 'mqtt.subscribe', { topic: 'x/#', host: '127.0.0.1', port: closed });
    expect(sub.errors).toEqual([]);
    const conn = otherConnections(t)[0]!;
    await expect.poll(() => conn.lastError, { timeout: 10_000 }).toBeDefined();
    expect(conn.status().last_error).toMatch(/^no MQTT broker there accepted a connection/);
    expect(conn.status().last_error).not.toMatch(/ECONNREFUSED/);
  });
});
