import type { MqttClient } from 'mqtt';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { makeApp } from '../../helpers/service.ts';
import type { TestApp } from '../../helpers/service.ts';
import { startBroker } from './broker.ts';
import type { Broker } from './broker.ts';
import {
  call,
  eventTopics,
  mainConnection,
  nextEvent,
  nextMessage,
  outsideClient,
} from './helpers.ts';

const HOOKS = `
event.hook.Doorbell:
  if:
    type: MQTTMessageEvent
    topic: sensors/doorbell
  then:
    - action: mqtt.publish
      args:
        topic: out/doorbell
        msg: 'ring \${msg.who}'
        qos: 1
event.hook.AnyLight:
  if:
    type: platypush.message.event.mqtt.MQTTMessageEvent
    subscription: home/+/light
  then:
    - action: variable.set
      args:
        last_light: \${topic}
`;

describe('mqtt against a real broker', () => {
  let broker: Broker;
  let t: TestApp;
  let outside: MqttClient;

  beforeAll(async () => {
    broker = await startBroker();
    t = await makeApp(`mqtt:
  host: 127.0.0.1
  port: ${broker.port}
  topics: ['sensors/#', {topic: 'qos1/#', qos: 1}]
  timeout: 5
  reconnect_min_seconds: 0.1
  reconnect_max_seconds: 0.5
${HOOKS}`);
    outside = await outsideClient(broker.url);
    await outside.subscribeAsync('out/#', { qos: 1 });
    await mainConnection(t).whenConnected(10_000, 'test');
  });
  afterAll(async () => {
    await outside?.endAsync();
    await t?.close();
    await broker?.stop();
  });

  it('connects at start and reports its state', async () => {
    const status = (await call(t, 'mqtt.status')).output as Record<string, unknown>;
    expect(status).toMatchObject({
      state: 'connected',
      host: '127.0.0.1',
      port: broker.port,
      subscriptions: [
        { topic: 'sensors/#', qos: 0 },
        { topic: 'qos1/#', qos: 1 },
      ],
      last_error: null,
      connections: [],
    });
    expect(status.client_id).toMatch(/^pipit-test-host-[0-9a-f]{6}$/);
  });

  it('publishes: strings as they are, other values as JSON', async () => {
    const got = nextMessage(outside, 'out/plain');
    expect((await call(t, 'mqtt.publish', { topic: 'out/plain', msg: 'hello' })).errors).toEqual(
      [],
    );
    expect((await got).payload).toBe('hello');
    const json = nextMessage(outside, 'out/json');
    await call(t, 'mqtt.publish', { topic: 'out/json', msg: { on: true, level: 3 } });
    expect(JSON.parse((await json).payload)).toEqual({ on: true, level: 3 });
    expect((await call(t, 'mqtt.publish', { topic: 'out/none' })).errors[0]).toMatch(
      /^mqtt\.publish: argument "msg"/,
    );
  });

  it('turns messages on subscribed topics into MQTTMessageEvents, JSON parsed', async () => {
    const event = nextEvent(t, 'sensors/kitchen/temperature');
    await outside.publishAsync('sensors/kitchen/temperature', '{"celsius": 21.5}');
    expect((await event).args).toMatchObject({
      type: 'pipit.message.event.mqtt.MQTTMessageEvent',
      topic: 'sensors/kitchen/temperature',
      msg: { celsius: 21.5 },
      qos: 0,
      retain: false,
      host: '127.0.0.1',
      port: broker.port,
      subscription: 'sensors/#',
    });
    const text = nextEvent(t, 'sensors/note');
    await outside.publishAsync('sensors/note', 'not json {');
    expect((await text).args.msg).toBe('not json {');
    const binary = nextEvent(t, 'sensors/raw');
    await outside.publishAsync('sensors/raw', Buffer.from([0xff, 0xfe, 0x00]));
    expect((await binary).args).toMatchObject({ msg: '//4A', encoding: 'base64' });
  });

  it('round-trips with QoS 1 both ways', async () => {
    const inbound = nextEvent(t, 'qos1/x');
    await outside.publishAsync('qos1/x', 'one', { qos: 1 });
    expect((await inbound).args).toMatchObject({ qos: 1, subscription: 'qos1/#' });
    const outbound = nextMessage(outside, 'out/qos1');
    expect(
      (await call(t, 'mqtt.publish', { topic: 'out/qos1', msg: 'acked', qos: 1 })).output,
    ).toMatchObject({ qos: 1 });
    expect(await outbound).toMatchObject({ payload: 'acked', qos: 1 });
  });

  it('subscribes at run time with wildcards, and unsubscribes', async () => {
    const seen = eventTopics(t);
    const sub = await call(t, 'mqtt.subscribe', { topic: 'home/+/light', qos: 1 });
    expect(sub.output).toEqual({
      topic: 'home/+/light',
      qos: 1,
      host: '127.0.0.1',
      port: broker.port,
      active: true,
    });
    const hit = nextEvent(t, 'home/kitchen/light');
    await outside.publishAsync('home/kitchen/other', 'x');
    await outside.publishAsync('home/kitchen/light', 'on', { qos: 1 });
    expect((await hit).args).toMatchObject({ msg: 'on', subscription: 'home/+/light' });
    await t.service.events.idle();
    expect(t.service.store.variables.get('last_light')).toBe('home/kitchen/light');
    expect((await call(t, 'mqtt.unsubscribe', { topic: 'home/+/light' })).errors).toEqual([]);
    await outside.publishAsync('home/hall/light', 'on', { qos: 1 });
    // A message sent after it on a subscribed topic arrives: the one before it did not.
    const sentinel = nextEvent(t, 'sensors/sentinel');
    await outside.publishAsync('sensors/sentinel', 'x', { qos: 1 });
    await sentinel;
    expect(seen.topics).not.toContain('home/kitchen/other');
    expect(seen.topics).not.toContain('home/hall/light');
    seen.stop();
    expect((await call(t, 'mqtt.unsubscribe', { topic: 'home/+/light' })).errors[0]).toMatch(
      /not subscribed to "home\/\+\/light"/,
    );
    expect((await call(t, 'mqtt.subscribe', { topic: 'home/#/x' })).errors[0]).toMatch(
      /is not a valid topic filter/,
    );
    expect((await call(t, 'mqtt.publish', { topic: 'home/+', msg: 'x' })).errors[0]).toMatch(
      /cannot be published to/,
    );
  });

  it('delivers retained messages to new subscriptions, and publishes retained ones', async () => {
    await outside.publishAsync('state/door', 'open', { qos: 1, retain: true });
    const retained = nextEvent(t, 'state/door');
    await call(t, 'mqtt.subscribe', { topic: 'state/door' });
    expect((await retained).args).toMatchObject({ msg: 'open', retain: true });
    await call(t, 'mqtt.publish', { topic: 'out/retained', msg: 'kept', qos: 1, retain: true });
    const late = await outsideClient(broker.url);
    try {
      const got = nextMessage(late, 'out/retained');
      await late.subscribeAsync('out/retained');
      expect(await got).toMatchObject({ payload: 'kept', retain: true });
    } finally {
      await late.endAsync();
    }
  });

  it('runs an event hook on a message, whose action publishes an answer', async () => {
    const answer = nextMessage(outside, 'out/doorbell');
    await outside.publishAsync('sensors/doorbell', JSON.stringify({ who: 'ada' }));
    expect(await answer).toMatchObject({ payload: 'ring ada', qos: 1 });
  });

  it('publishes and waits for a reply with reply_topic', async () => {
    const responder = await outsideClient(broker.url);
    try {
      await responder.subscribeAsync('rpc/ask');
      responder.on('message', (topic, payload) => {
        if (topic === 'rpc/ask')
          void responder.publishAsync('rpc/answer', JSON.stringify({ echo: payload.toString() }));
      });
      const res = await call(t, 'mqtt.publish', {
        topic: 'rpc/ask',
        msg: 'ping',
        reply_topic: 'rpc/answer',
      });
      expect(res.output).toMatchObject({ topic: 'rpc/ask', reply: { echo: 'ping' } });
    } finally {
      await responder.endAsync();
    }
  });

  it('takes a reply_topic with wildcards, and refuses a reply over max_message_bytes', async () => {
    const responder = await outsideClient(broker.url);
    try {
      await responder.subscribeAsync('rpc2/+');
      responder.on('message', (topic, payload) => {
        // "big" asks for a reply one byte over the default limit (1 MiB).
        const body = payload.toString() === 'big' ? 'x'.repeat(1024 * 1024 + 1) : '"small"';
        if (topic.startsWith('rpc2/')) void responder.publishAsync('rpc2-answer/7/done', body);
      });
      const res = await call(t, 'mqtt.publish', {
        topic: 'rpc2/ask',
        msg: 'ping',
        reply_topic: 'rpc2-answer/+/done',
      });
      expect(res.output).toMatchObject({ topic: 'rpc2/ask', reply: 'small' });
      const big = await call(t, 'mqtt.publish', {
        topic: 'rpc2/ask',
        msg: 'big',
        reply_topic: 'rpc2-answer/#',
      });
      expect([big.code, big.reason]).toEqual(['ACTION_FAILED', 'UPSTREAM_ERROR']);
      expect(big.errors).toEqual([
        'mqtt.publish: the reply on "rpc2-answer/7/done" is 1048577 bytes, over mqtt.max_message_bytes (1048576); raise that limit in the configuration to accept it',
      ]);
    } finally {
      await responder.endAsync();
    }
  });

  it('reconnects after the broker restarts, and subscribes again', async () => {
    const conn = mainConnection(t);
    await broker.kill();
    await vi.waitFor(() => expect(conn.state).toBe('reconnecting'), {
      timeout: 5000,
      interval: 20,
    });
    // Publishing while the broker is down waits for it, then fails naming the broker and the state.
    const down = await call(t, 'mqtt.publish', { topic: 'out/x', msg: 'x', timeout: 0.3 });
    expect(down.code).toBe('UNAVAILABLE');
    expect(down.errors[0]).toMatch(
      new RegExp(
        `not connected to the MQTT broker 127\\.0\\.0\\.1:${broker.port} \\(reconnecting; last error: .*\\)`,
      ),
    );
    await broker.start();
    await conn.whenConnected(10_000, 'test');
    expect(
      ((await call(t, 'mqtt.status')).output as { reconnects: number }).reconnects,
    ).toBeGreaterThanOrEqual(1);
    // The new broker knows nothing of the old subscriptions: events arrive only if Pipit subscribed again.
    const again = await outsideClient(broker.url);
    try {
      const event = nextEvent(t, 'sensors/after-restart');
      await again.publishAsync('sensors/after-restart', '1', { qos: 1 });
      expect((await event).args.msg).toBe(1);
      await again.subscribeAsync('out/#');
      const got = nextMessage(again, 'out/after');
      await call(t, 'mqtt.publish', { topic: 'out/after', msg: 'back', qos: 1 });
      expect((await got).payload).toBe('back');
    } finally {
      await again.endAsync();
    }
    outside = await outsideClient(broker.url);
  });
});
