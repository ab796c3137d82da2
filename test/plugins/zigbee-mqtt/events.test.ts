import mqtt from 'mqtt';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { call } from '../call.ts';
import { codeOf, zigbeeSetup } from './helpers.ts';
import type { ZigbeeSetup } from './helpers.ts';

// zigbee.mqtt's events, from the emulated bridge on a real mosquitto, into hooks.

const HOOKS = `
event.hook.HallTemperature:
  if:
    type: ZigbeeMqttDevicePropertySetEvent
    device: hall_sensor
  then:
    - action: variable.set
      args:
        hall_temperature: \${properties['temperature']}
event.hook.AnyProperty:
  if: {type: ZigbeeMqttDevicePropertySetEvent}
  then:
    - action: variable.set
      args:
        last_device: \${device}
`;

let z: ZigbeeSetup;
const variable = (name: string) => z.t.service.store.variables.get(name);
const kinds = () => z.events.map((e) => e.kind);

beforeAll(async () => {
  z = await zigbeeSetup({ yaml: HOOKS });
});
afterAll(async () => {
  await z?.close();
});

describe('zigbee.mqtt events', () => {
  it('raises ZigbeeMqttOnlineEvent from the retained bridge/state at start', () => {
    expect(z.events[0]).toMatchObject({
      kind: 'ZigbeeMqttOnlineEvent',
      args: { host: '127.0.0.1', port: z.broker.port },
    });
  });

  it('a report of a device runs the hook whose condition names it, with the changed properties', async () => {
    await z.emu.report('kitchen/plug', { power: 40 });
    await vi.waitFor(() => expect(variable('last_device')).toBe('kitchen/plug'));
    expect(variable('hall_temperature')).toBeUndefined();
    await z.emu.report('hall_sensor', { temperature: 23.5, humidity: 44.7 });
    await vi.waitFor(() => expect(variable('hall_temperature')).toBe(23.5));
    expect(z.events.at(-1)).toMatchObject({
      kind: 'ZigbeeMqttDevicePropertySetEvent',
      args: { device: 'hall_sensor', properties: { temperature: 23.5, humidity: 44.7 } },
    });
  });

  it('only the properties that changed are reported; a report that changes nothing raises nothing', async () => {
    const before = z.events.length;
    await z.emu.report('hall_sensor', { temperature: 23.5, humidity: 44.7 });
    await z.emu.report('hall_sensor', { temperature: 24, humidity: 44.7 });
    await vi.waitFor(() => expect(variable('hall_temperature')).toBe(24));
    expect(z.events.slice(before).map((e) => e.args.properties)).toEqual([{ temperature: 24 }]);
  });

  it('a device that joins raises ZigbeeMqttDeviceConnectedEvent once', async () => {
    await z.emu.join({
      info: {
        ieee_address: '0x0017880104e45517',
        friendly_name: 'porch_button',
        type: 'EndDevice',
        definition: { model: 'WXKG01LM', vendor: 'Xiaomi', description: 'button', exposes: [] },
      },
      state: {},
    });
    await vi.waitFor(async () => {
      const names = (
        (await call(z.t, 'zigbee.mqtt.devices')).output as Array<{ friendly_name: string }>
      ).map((d) => d.friendly_name);
      expect(names).toContain('porch_button');
    });
    expect(z.events.filter((e) => e.kind === 'ZigbeeMqttDeviceConnectedEvent')).toEqual([
      expect.objectContaining({ args: expect.objectContaining({ device: 'porch_button' }) }),
    ]);
  });

  it('a device that leaves raises ZigbeeMqttDeviceRemovedEvent, and is NOT_FOUND after', async () => {
    await z.emu.leave('hall_sensor');
    await vi.waitFor(() => expect(kinds()).toContain('ZigbeeMqttDeviceRemovedEvent'));
    expect(z.events.filter((e) => e.kind === 'ZigbeeMqttDeviceRemovedEvent')).toEqual([
      expect.objectContaining({ args: expect.objectContaining({ device: 'hall_sensor' }) }),
    ]);
    const get = await call(z.t, 'zigbee.mqtt.device_get', { device: 'hall_sensor' });
    expect(codeOf(get)).toBe('NOT_FOUND');
    expect(get.errors[0]).toMatch(/no device "hall_sensor"/);
    const set = await call(z.t, 'zigbee.mqtt.device_set', {
      device: 'hall_sensor',
      property: 'temperature',
      value: 1,
    });
    expect(codeOf(set)).toBe('NOT_FOUND');
  });

  it('a device missing from a new bridge/devices list (no bridge/event) is removed too', async () => {
    await z.emu.leave('porch_button', { event: false });
    await vi.waitFor(() =>
      expect(
        z.events.filter((e) => e.kind === 'ZigbeeMqttDeviceRemovedEvent').map((e) => e.args.device),
      ).toEqual(['hall_sensor', 'porch_button']),
    );
  });

  it('the bridge going offline and online raises the events and shows in the status', async () => {
    await z.emu.offline();
    await vi.waitFor(() => expect(kinds().at(-1)).toBe('ZigbeeMqttOfflineEvent'));
    expect(z.link()).toEqual({ connected: false, detail: expect.stringMatching(/bridge offline/) });
    const set = await call(z.t, 'zigbee.mqtt.device_set', {
      device: 'living_room_bulb',
      property: 'state',
      value: 'ON',
    });
    expect(set.code).toBe('UNAVAILABLE');
    expect(set.errors[0]).toMatch(/bridge .* is offline/);
    await z.emu.online();
    await vi.waitFor(() => expect(kinds().at(-1)).toBe('ZigbeeMqttOnlineEvent'));
    expect(z.link()?.connected).toBe(true);
  });

  it('reads the older plain bridge/state payloads ("offline", "online") as well', async () => {
    const raw = await mqtt.connectAsync(z.broker.url);
    try {
      await raw.publishAsync('zigbee2mqtt/bridge/state', 'offline', { retain: true });
      await vi.waitFor(() => expect(kinds().at(-1)).toBe('ZigbeeMqttOfflineEvent'));
      await raw.publishAsync('zigbee2mqtt/bridge/state', 'online', { retain: true });
      await vi.waitFor(() => expect(kinds().at(-1)).toBe('ZigbeeMqttOnlineEvent'));
    } finally {
      await raw.endAsync();
    }
  });

  it('reconnects after mosquitto restarts: the status says so, and events flow again', async () => {
    await z.broker.kill();
    await vi.waitFor(() => expect(z.link()?.connected).toBe(false));
    expect(z.link()?.detail).toMatch(/not connected/);
    const down = await call(z.t, 'zigbee.mqtt.devices');
    expect(down.code).toBe('UNAVAILABLE');
    expect(down.errors[0]).toMatch(/retrying in \d+ s/);
    await z.broker.start();
    await z.emu.connected();
    await vi.waitFor(() => expect(z.link()?.connected).toBe(true), { timeout: 5000 });
    await z.emu.report('living_room_bulb', { linkquality: 42 });
    await vi.waitFor(() => expect(variable('last_device')).toBe('living_room_bulb'));
    expect(z.events.at(-1)).toMatchObject({
      kind: 'ZigbeeMqttDevicePropertySetEvent',
      args: { device: 'living_room_bulb', properties: { linkquality: 42 } },
    });
  });
});
