import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeApp } from '../../helpers/service.ts';
import type { TestApp } from '../../helpers/service.ts';
import { startBroker } from './broker.ts';
import type { Broker } from './broker.ts';
import { call, nextEvent, nextMessage, otherConnections, outsideClient } from './helpers.ts';

describe('mqtt without a configured broker', () => {
  let broker: Broker;
  let t: TestApp;

  beforeAll(async () => {
    broker = await startBroker();
    t = await makeApp('');
  });
  afterAll(async () => {
    await t?.close();
    await broker?.stop();
  });

  it('is enabled, connects to nothing, and says it is not configured', async () => {
    const status = (await call(t, 'mqtt.status')).output as Record<string, unknown>;
    expect(status).toMatchObject({ state: 'not configured', connections: [] });
    expect(String(status.hint)).toMatch(/add "mqtt: \{host: <broker>\}"/);
    const sub = await call(t, 'mqtt.subscribe', { topic: 'x/#' });
    expect(sub.errors[0]).toBe(
      'mqtt.subscribe: no MQTT broker: add "mqtt: {host: <broker>}" to the configuration, or pass "host" (and "port")',
    );
  });

  it('publishes to a broker named in the call, and subscribes there on a lasting connection', async () => {
    const outside = await outsideClient(broker.url);
    try {
      await outside.subscribeAsync('adhoc/#');
      const got = nextMessage(outside, 'adhoc/x');
      const res = await call(t, 'mqtt.send_message', {
        topic: 'adhoc/x',
        msg: [1, 2],
        host: '127.0.0.1',
        port: broker.port,
        qos: 1,
      });
      expect(res.errors).toEqual([]);
      expect((await got).payload).toBe('[1,2]');
      const sub = await call(t, 'mqtt.subscribe', {
        topic: 'elsewhere/#',
        host: '127.0.0.1',
        port: broker.port,
      });
      expect(sub.errors).toEqual([]);
      const status = (await call(t, 'mqtt.status')).output as {
        connections: { port: number; state: string }[];
      };
      expect(status.connections).toMatchObject([{ port: broker.port }]);
      await otherConnections(t)[0]!.whenConnected(10_000, 'test');
      const event = nextEvent(t, 'elsewhere/y');
      await outside.publishAsync('elsewhere/y', 'hi');
      expect((await event).args).toMatchObject({
        msg: 'hi',
        port: broker.port,
        subscription: 'elsewhere/#',
      });
      expect(
        (
          await call(t, 'mqtt.unsubscribe', {
            topic: 'elsewhere/#',
            host: '127.0.0.1',
            port: broker.port,
          })
        ).errors,
      ).toEqual([]);
      expect(
        ((await call(t, 'mqtt.status')).output as { connections: unknown[] }).connections,
      ).toEqual([]);
    } finally {
      await outside.endAsync();
    }
  });

  it('fails clearly when the named broker is not there', async () => {
    await broker.kill();
    const res = await call(t, 'mqtt.publish', {
      topic: 'x',
      msg: 'x',
      host: '127.0.0.1',
      port: broker.port,
      timeout: 2,
    });
    expect(res.code).toBe('UNAVAILABLE');
    // The same words for every cause (hosts.test.ts): a call cannot probe ports with them.
    expect(res.errors[0]).toBe(
      `mqtt.publish: cannot connect to the MQTT broker 127.0.0.1:${broker.port}: no MQTT broker there accepted a connection from this client (the service log has the cause)`,
    );
  });
});
