import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { call } from '../call.ts';
import { codeOf, zigbeeSetup } from './helpers.ts';
import type { ZigbeeSetup } from './helpers.ts';

// zigbee.mqtt's actions against the emulated Zigbee2MQTT bridge on a real mosquitto.

let z: ZigbeeSetup;
beforeAll(async () => {
  z = await zigbeeSetup();
});
afterAll(async () => {
  await z?.close();
});

describe('zigbee.mqtt actions', () => {
  it('devices lists the bridge/devices entries, the coordinator too (as Platypush does)', async () => {
    const res = await call(z.t, 'zigbee.mqtt.devices');
    expect(res.errors).toEqual([]);
    const devices = res.output as Array<Record<string, unknown>>;
    expect(devices.map((d) => d.friendly_name).sort()).toEqual([
      'Coordinator',
      'hall_sensor',
      'kitchen/plug',
      'living_room_bulb',
    ]);
    expect(devices.find((d) => d.friendly_name === 'living_room_bulb')).toMatchObject({
      ieee_address: '0x90fd9ffffe6494fc',
      type: 'Router',
      definition: { model: 'LED1624G9', vendor: 'IKEA' },
    });
  });

  it('groups lists bridge/groups', async () => {
    const res = await call(z.t, 'zigbee.mqtt.groups');
    expect(res.output).toEqual([expect.objectContaining({ id: 1, friendly_name: 'living_room' })]);
  });

  it('device_set publishes <device>/set and answers the state the device reports', async () => {
    const res = await call(z.t, 'zigbee.mqtt.device_set', {
      device: 'living_room_bulb',
      property: 'brightness',
      value: 200,
    });
    expect(res.errors).toEqual([]);
    expect(res.output).toEqual({ brightness: 200 });
    expect(z.emu.commands.at(-1)).toEqual({
      device: 'living_room_bulb',
      verb: 'set',
      payload: { brightness: 200 },
    });
    expect(z.emu.stateOf('living_room_bulb')?.brightness).toBe(200);
  });

  it('device_set takes an IEEE address, and several values at once', async () => {
    const res = await call(z.t, 'zigbee.mqtt.device_set', {
      device: '0x90fd9ffffe6494fc',
      values: { state: 'ON', brightness: 50 },
    });
    expect(res.output).toMatchObject({ state: 'ON', brightness: 50 });
  });

  it('device_set refuses a property the device does not expose, naming the ones it has', async () => {
    const res = await call(z.t, 'zigbee.mqtt.device_set', {
      device: 'living_room_bulb',
      property: 'colour',
      value: 'red',
    });
    expect(codeOf(res)).toBe('INVALID_ARGUMENTS');
    expect(res.errors[0]).toMatch(/no property "colour".*state, brightness/);
  });

  it('device_get with a property asks the device with /get and answers its value', async () => {
    const res = await call(z.t, 'zigbee.mqtt.device_get', {
      device: 'kitchen/plug',
      property: 'power',
    });
    expect(res.errors).toEqual([]);
    expect(res.output).toEqual({ power: 12.5 });
    expect(z.emu.commands.at(-1)).toEqual({
      device: 'kitchen/plug',
      verb: 'get',
      payload: { power: '' },
    });
  });

  it('device_get without a property asks for every readable property', async () => {
    const res = await call(z.t, 'zigbee.mqtt.device_get', { device: 'kitchen/plug' });
    expect(res.output).toEqual({ state: 'ON', power: 12.5 });
    expect(z.emu.commands.at(-1)?.payload).toEqual({ state: '', power: '' });
  });

  it('device_get of a sensor with nothing readable answers its last known state', async () => {
    await z.emu.report('hall_sensor', { temperature: 19.5 });
    await vi.waitFor(async () =>
      expect((await call(z.t, 'zigbee.mqtt.device_get', { device: 'hall_sensor' })).output).toEqual(
        { temperature: 19.5 },
      ),
    );
  });

  it('an unknown device is NOT_FOUND, with a did-you-mean', async () => {
    const res = await call(z.t, 'zigbee.mqtt.device_set', {
      device: 'living_room_bulp',
      property: 'state',
      value: 'ON',
    });
    expect(codeOf(res)).toBe('NOT_FOUND');
    expect(res.errors[0]).toMatch(/no device "living_room_bulp".*Did you mean "living_room_bulb"/);
  });

  it('permit_join sends a request with a transaction and answers the bridge response', async () => {
    const res = await call(z.t, 'zigbee.mqtt.permit_join', { permit: true, timeout: 60 });
    expect(res.errors).toEqual([]);
    expect(res.output).toEqual({ value: true, time: 60 });
    const sent = z.emu.requests.at(-1)!;
    expect(sent.name).toBe('permit_join');
    expect(sent.payload).toMatchObject({ value: true, time: 60, transaction: expect.any(String) });
  });

  it('device_rename renames through the bridge, without reporting a removal or a join', async () => {
    const before = z.events.length;
    const res = await call(z.t, 'zigbee.mqtt.device_rename', {
      device: 'kitchen/plug',
      name: 'kitchen/kettle',
    });
    expect(res.errors).toEqual([]);
    expect(res.output).toEqual({
      from: 'kitchen/plug',
      to: 'kitchen/kettle',
      homeassistant_rename: false,
    });
    await vi.waitFor(async () => {
      const names = (
        (await call(z.t, 'zigbee.mqtt.devices')).output as Array<{
          friendly_name: string;
        }>
      ).map((d) => d.friendly_name);
      expect(names).toContain('kitchen/kettle');
    });
    expect(
      (await call(z.t, 'zigbee.mqtt.device_get', { device: 'kitchen/kettle', property: 'state' }))
        .output,
    ).toEqual({ state: 'ON' });
    expect(z.events.slice(before).map((e) => e.kind)).not.toContain('ZigbeeMqttDeviceRemovedEvent');
  });

  it('device_rename refuses a name already taken', async () => {
    const res = await call(z.t, 'zigbee.mqtt.device_rename', {
      device: 'hall_sensor',
      name: 'living_room_bulb',
    });
    expect(res.code).toBe('CONFLICT');
  });

  it("a request the bridge refuses is an UPSTREAM_ERROR with the bridge's error", async () => {
    // The guide's example of a failed request: {"data":{},"error":"Failed to connect to adapter","status":"error"}
    z.emu.refuse('permit_join', 'Failed to connect to adapter');
    const res = await call(z.t, 'zigbee.mqtt.permit_join', { permit: true });
    expect(codeOf(res)).toBe('UPSTREAM_ERROR');
    expect(res.errors[0]).toMatch(
      /refused bridge\/request\/permit_join: Failed to connect to adapter/,
    );
  });

  it('a request the bridge does not answer is a TIMEOUT, and so is a silent device', async () => {
    z.emu.answering = false;
    try {
      const started = Date.now();
      const res = await call(z.t, 'zigbee.mqtt.permit_join', { permit: false });
      expect(codeOf(res)).toBe('TIMEOUT');
      expect(res.errors[0]).toMatch(
        /no answer on zigbee2mqtt\/bridge\/response\/permit_join within 1 s/,
      );
      expect(Date.now() - started).toBeLessThan(3000);
      const get = await call(z.t, 'zigbee.mqtt.device_get', {
        device: 'living_room_bulb',
        property: 'state',
      });
      expect(codeOf(get)).toBe('TIMEOUT');
      expect(get.errors[0]).toMatch(/"living_room_bulb" did not publish "state"/);
    } finally {
      z.emu.answering = true;
    }
  });
});
