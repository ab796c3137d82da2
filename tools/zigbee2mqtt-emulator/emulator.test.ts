import mqtt from 'mqtt';
import type { MqttClient } from 'mqtt';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startBroker } from '../../test/plugins/mqtt/broker.ts';
import type { Broker } from '../../test/plugins/mqtt/broker.ts';
import { startZigbee2MqttEmulator } from './index.ts';
import type { EmulatedDevice, Zigbee2MqttEmulator } from './index.ts';

// The emulator's messages against the examples of Zigbee2MQTT's "MQTT Topics and Messages" guide:
// https://www.zigbee2mqtt.io/guide/usage/mqtt_topics_and_messages.html
// (source: github.com/Koenkk/zigbee2mqtt.io, docs/guide/usage/mqtt_topics_and_messages.md)

/** The guide's bridge/devices example entries (exposes/options elided there, empty here). */
const DOC_DEVICES = [
  {
    ieee_address: '0x00158d00018255df',
    type: 'Router',
    network_address: 29159,
    supported: true,
    friendly_name: 'my_plug',
    definition: {
      model: 'ZNCZ02LM',
      vendor: 'Xiaomi',
      description: 'Mi power plug ZigBee',
      options: [],
      exposes: [],
    },
    power_source: 'Mains (single phase)',
    date_code: '02-28-2017',
    model_id: 'lumi.plug',
    scenes: [{ id: 3, name: 'Chill scene' }],
    interviewing: false,
    interview_completed: true,
  },
  {
    ieee_address: '0x90fd9ffffe6494fc',
    type: 'Router',
    network_address: 57440,
    supported: true,
    friendly_name: 'my_bulb',
    definition: {
      model: 'LED1624G9',
      vendor: 'IKEA',
      description: 'TRADFRI LED bulb E14/E26/E27 600 lumen, dimmable, color, opal white',
      options: [],
      exposes: [],
    },
    power_source: 'Mains (single phase)',
    software_build_id: '1.3.009',
    model_id: 'TRADFRI bulb E27 CWS opal 600lm',
    scenes: [],
    date_code: '20180410',
    interviewing: false,
    interview_completed: true,
  },
];
/** The guide's bridge/groups example. */
const DOC_GROUPS = [
  {
    id: 1,
    friendly_name: 'my_group',
    scenes: [{ id: 1, name: 'Scene 1' }],
    members: [{ ieee_address: '0x90fd9ffffe6494fc', endpoint: 1 }],
  },
];

let broker: Broker;
let emu: Zigbee2MqttEmulator;
let client: MqttClient;
const received: Array<{ topic: string; payload: unknown; retain: boolean }> = [];

function devices(): EmulatedDevice[] {
  return DOC_DEVICES.map((info) => ({ info: structuredClone(info), state: {} }));
}

/** The first message on `topic` received after index `after`. */
async function next(topic: string, after = received.length): Promise<unknown> {
  return vi.waitFor(() => {
    const hit = received.slice(after).find((m) => m.topic === topic);
    if (!hit) throw new Error(`nothing on ${topic} yet`);
    return hit.payload;
  });
}

beforeAll(async () => {
  broker = await startBroker();
  emu = await startZigbee2MqttEmulator({
    brokerUrl: broker.url,
    devices: devices(),
    groups: DOC_GROUPS,
  });
  client = await mqtt.connectAsync(broker.url);
  client.on('message', (topic, buf, packet) => {
    let payload: unknown = buf.toString();
    try {
      payload = JSON.parse(buf.toString());
    } catch {
      // a plain word
    }
    received.push({ topic, payload, retain: packet.retain });
  });
  await client.subscribeAsync('zigbee2mqtt/#');
});
afterAll(async () => {
  await client?.endAsync();
  await emu?.close();
  await broker?.stop();
});

describe('the emulated Zigbee2MQTT bridge, against the guide', () => {
  it('keeps bridge/state, bridge/devices and bridge/groups retained, as the examples', async () => {
    const retained = (topic: string) => received.find((m) => m.topic === topic && m.retain);
    await next('zigbee2mqtt/bridge/groups', 0);
    expect(retained('zigbee2mqtt/bridge/state')?.payload).toEqual({ state: 'online' });
    expect(retained('zigbee2mqtt/bridge/devices')?.payload).toEqual(DOC_DEVICES);
    expect(retained('zigbee2mqtt/bridge/groups')?.payload).toEqual(DOC_GROUPS);
  });

  it('answers permit_join with the transaction: {"data":{"value":true},"status":"ok","transaction":23}', async () => {
    const at = received.length;
    await client.publishAsync(
      'zigbee2mqtt/bridge/request/permit_join',
      JSON.stringify({ value: true, transaction: 23 }),
    );
    expect(await next('zigbee2mqtt/bridge/response/permit_join', at)).toEqual({
      data: { value: true },
      status: 'ok',
      transaction: 23,
    });
  });

  it('answers device/rename as the guide shows, and republishes bridge/devices', async () => {
    const at = received.length;
    await client.publishAsync(
      'zigbee2mqtt/bridge/request/device/rename',
      JSON.stringify({ from: 'my_bulb', to: 'my_bulb_new_name' }),
    );
    expect(await next('zigbee2mqtt/bridge/response/device/rename', at)).toEqual({
      data: { from: 'my_bulb', to: 'my_bulb_new_name', homeassistant_rename: false },
      status: 'ok',
    });
    const list = (await next('zigbee2mqtt/bridge/devices', at)) as Array<{ friendly_name: string }>;
    expect(list.map((d) => d.friendly_name)).toEqual(['my_plug', 'my_bulb_new_name']);
  });

  it('answers a failed request with {"data":{}, "error": ..., "status":"error"}', async () => {
    const at = received.length;
    await client.publishAsync(
      'zigbee2mqtt/bridge/request/device/rename',
      JSON.stringify({ from: 'nope', to: 'x' }),
    );
    expect(await next('zigbee2mqtt/bridge/response/device/rename', at)).toEqual({
      data: {},
      status: 'error',
      error: expect.any(String),
    });
  });

  it('handles <device>/set by publishing the new state, as the LED1545G12 example', async () => {
    const at = received.length;
    await client.publishAsync(
      'zigbee2mqtt/my_plug/set',
      JSON.stringify({ state: 'ON', brightness: 215, color_temp: 325 }),
    );
    expect(await next('zigbee2mqtt/my_plug', at)).toEqual({
      state: 'ON',
      brightness: 215,
      color_temp: 325,
    });
  });

  it('handles <device>/get with {"state": ""} by publishing the state', async () => {
    const at = received.length;
    await client.publishAsync('zigbee2mqtt/my_plug/get', JSON.stringify({ state: '' }));
    expect(await next('zigbee2mqtt/my_plug', at)).toMatchObject({ state: 'ON' });
  });

  it('publishes device_leave on bridge/event as the guide does', async () => {
    const at = received.length;
    await emu.leave('my_bulb_new_name');
    // The guide: {"type":"device_leave","data":{"ieee_address":"0x90fd9ffffe6494fc","friendly_name":"my_bulb"}}
    expect(await next('zigbee2mqtt/bridge/event', at)).toEqual({
      type: 'device_leave',
      data: { ieee_address: '0x90fd9ffffe6494fc', friendly_name: 'my_bulb_new_name' },
    });
  });

  it('says offline in bridge/state (retained) and stops answering when told to', async () => {
    const at = received.length;
    await emu.offline();
    expect(await next('zigbee2mqtt/bridge/state', at)).toEqual({ state: 'offline' });
    await emu.online();
    emu.answering = false;
    const before = received.length;
    await client.publishAsync(
      'zigbee2mqtt/bridge/request/permit_join',
      JSON.stringify({ value: false, transaction: 24 }),
    );
    // Its own requests reach it in order: once 25 is answered, 24 was seen and left unanswered.
    await vi.waitFor(() => expect(emu.requests.at(-1)?.payload).toMatchObject({ transaction: 24 }));
    emu.answering = true;
    await client.publishAsync(
      'zigbee2mqtt/bridge/request/permit_join',
      JSON.stringify({ value: false, transaction: 25 }),
    );
    await next('zigbee2mqtt/bridge/response/permit_join', before);
    const answers = received
      .slice(before)
      .filter((m) => m.topic === 'zigbee2mqtt/bridge/response/permit_join')
      .map((m) => (m.payload as { transaction: number }).transaction);
    expect(answers).toEqual([25]);
  });
});
