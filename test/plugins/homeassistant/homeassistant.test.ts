import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startHomeAssistantEmulator } from '../../../tools/homeassistant-emulator/index.ts';
import type { HomeAssistantEmulator } from '../../../tools/homeassistant-emulator/index.ts';
import type { TestApp } from '../../helpers/service.ts';
import { registerAndToken } from '../../helpers/service.ts';
import { call, haApp, haStatus } from './helpers.ts';

const HOOKS = `event.hook.FrontDoorOpened:
  if:
    type: HomeAssistantStateChangedEvent
    entity_id: binary_sensor.front_door
    new_state: {state: 'on'}
  then:
    - action: variable.set
      args:
        door: \${new_state.state}/\${old_state.state}
event.hook.Doorbell:
  if:
    type: HomeAssistantEvent
    event_type: doorbell_pressed
  then:
    - action: variable.set
      args:
        doorbell: \${data.button}
`;

async function variable(t: TestApp, name: string): Promise<unknown> {
  return ((await call(t, 'variable.get', { name })).output as Record<string, unknown>)[name];
}

describe('homeassistant against the emulator', () => {
  let ha: HomeAssistantEmulator;
  let t: TestApp;

  beforeAll(async () => {
    ha = await startHomeAssistantEmulator({ token: 'good-token' });
    t = await haApp(ha.url, 'good-token', {
      section: "  events: ['state_changed', 'doorbell_pressed']\n",
      extra: HOOKS,
    });
  });
  afterAll(async () => {
    await t?.close();
    await ha?.close();
  });

  it('connects at start, subscribes to each event type and reports it', () => {
    expect(haStatus(t)).toEqual({
      connected: true,
      detail: `connected to ws://127.0.0.1:${ha.port}/api/websocket`,
    });
    const first = ha.control.commands.filter((c) => c.connection === 1).map((c) => c.message);
    expect(first.slice(0, 3)).toEqual([
      { id: 1, type: 'subscribe_events', event_type: 'state_changed' },
      { id: 2, type: 'subscribe_events', event_type: 'doorbell_pressed' },
      { id: 3, type: 'get_states' },
    ]);
  });

  it('get_states lists every entity, or one domain', async () => {
    const all = (await call(t, 'homeassistant.get_states')).output as Array<{ entity_id: string }>;
    expect(all.map((s) => s.entity_id)).toContain('sensor.outside_temperature');
    const lights = (await call(t, 'homeassistant.get_states', { domain: 'light' }))
      .output as Array<{
      entity_id: string;
    }>;
    expect(lights.map((s) => s.entity_id).sort()).toEqual(['light.bed_light', 'light.kitchen']);
  });

  it('get_state answers one entity, and NOT_FOUND naming an unknown one with a suggestion', async () => {
    const got = await call(t, 'homeassistant.get_state', {
      entity_id: 'sensor.outside_temperature',
    });
    expect(got.output).toMatchObject({ state: '12.5', attributes: { unit_of_measurement: '°C' } });
    const missing = await call(t, 'homeassistant.get_state', { entity_id: 'light.kitchn' });
    expect(missing.reason).toBe('NOT_FOUND');
    expect(missing.errors[0]).toContain('"light.kitchn"');
    expect(missing.errors[0]).toContain('Did you mean "light.kitchen"');
  });

  it('turn_on / turn_off / toggle change the entity, extra arguments going as service data', async () => {
    const on = await call(t, 'homeassistant.turn_on', {
      entity_id: 'light.kitchen',
      brightness: 128,
    });
    expect(on.errors).toEqual([]);
    expect(on.output).toMatchObject({ context: { id: expect.any(String) }, response: null });
    expect(ha.control.getState('light.kitchen')).toMatchObject({
      state: 'on',
      attributes: { brightness: 128 },
    });
    expect(ha.control.commands.at(-1)!.message).toMatchObject({
      type: 'call_service',
      domain: 'light',
      service: 'turn_on',
      target: { entity_id: 'light.kitchen' },
      service_data: { brightness: 128 },
    });
    await call(t, 'homeassistant.toggle', { entity_id: 'light.kitchen' });
    expect(ha.control.getState('light.kitchen')!.state).toBe('off');
    await call(t, 'homeassistant.turn_on', { entity_id: 'switch.coffee_maker' });
    await call(t, 'homeassistant.turn_off', { entity_id: 'switch.coffee_maker' });
    expect(ha.control.getState('switch.coffee_maker')!.state).toBe('off');
  });

  it('turn_on of a domain without its own service goes through homeassistant.turn_on', async () => {
    const got = await call(t, 'homeassistant.turn_on', { entity_id: 'cover.garage_door' });
    expect(got.errors).toEqual([]);
    expect(ha.control.commands.at(-1)!.message).toMatchObject({
      domain: 'homeassistant',
      service: 'turn_on',
    });
    expect(ha.control.getState('cover.garage_door')!.state).toBe('open');
  });

  it('call_service sends target, service_data and return_response, and maps HA errors', async () => {
    const on = await call(t, 'homeassistant.call_service', {
      domain: 'input_boolean',
      service: 'turn_on',
      entity_id: 'input_boolean.guest_mode',
    });
    expect(on.errors).toEqual([]);
    expect(ha.control.getState('input_boolean.guest_mode')!.state).toBe('on');
    const forecast = await call(t, 'homeassistant.call_service', {
      domain: 'weather',
      service: 'get_forecasts',
      entity_id: ['weather.home'],
      data: { type: 'daily' },
      return_response: true,
    });
    expect(forecast.output).toMatchObject({ response: { 'weather.home': { forecast: [] } } });
    expect(ha.control.commands.at(-1)!.message).toMatchObject({
      target: { entity_id: ['weather.home'] },
      service_data: { type: 'daily' },
      return_response: true,
    });
    const unknown = await call(t, 'homeassistant.call_service', {
      domain: 'light',
      service: 'explode',
    });
    expect(unknown.reason).toBe('NOT_FOUND');
    expect(unknown.errors[0]).toContain('Service light.explode not found.');
    const refused = await call(t, 'homeassistant.call_service', {
      domain: 'light',
      service: 'turn_on',
      return_response: true,
    });
    expect(refused.reason).toBe('INVALID_ARGUMENTS');
  });

  it('fire_event fires on the bus; a forwarded type comes back as HomeAssistantEvent to a hook', async () => {
    const got = await call(t, 'homeassistant.fire_event', {
      event_type: 'doorbell_pressed',
      data: { button: 'front' },
    });
    expect(got.output).toMatchObject({ context: { id: expect.any(String) } });
    expect(ha.control.fired.at(-1)).toMatchObject({
      event_type: 'doorbell_pressed',
      data: { button: 'front' },
    });
    await vi.waitFor(async () => expect(await variable(t, 'doorbell')).toBe('front'));
  });

  it('a door sensor opening runs the hook with the nested new_state condition', async () => {
    ha.control.setState('binary_sensor.front_door', 'on');
    await vi.waitFor(async () => expect(await variable(t, 'door')).toBe('on/off'));
    // Neither matches (new state not 'on'; another entity): the variable stays as it is.
    ha.control.setState('binary_sensor.front_door', 'unavailable');
    ha.control.setState('light.bed_light', 'on');
    await call(t, 'homeassistant.fire_event', {
      event_type: 'doorbell_pressed',
      data: { button: 'after the door' },
    });
    await vi.waitFor(async () => expect(await variable(t, 'doorbell')).toBe('after the door'));
    expect(await variable(t, 'door')).toBe('on/off');
  });

  it('ids increase on the connection', () => {
    const ids = ha.control.commands.filter((c) => c.connection === 1).map((c) => c.message.id);
    expect(ids).toEqual([...ids].sort((a, b) => (a as number) - (b as number)));
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('an entity that disappears: get_state and turn_on answer NOT_FOUND', async () => {
    ha.control.removeEntity('light.bed_light');
    const state = await call(t, 'homeassistant.get_state', { entity_id: 'light.bed_light' });
    expect(state.reason).toBe('NOT_FOUND');
    expect(state.errors[0]).toContain('"light.bed_light"');
    await vi.waitFor(async () =>
      expect(
        (await call(t, 'homeassistant.turn_on', { entity_id: 'light.bed_light' })).reason,
      ).toBe('NOT_FOUND'),
    );
  });

  it('a stalled Home Assistant: a call fails with TIMEOUT within timeout_seconds', async () => {
    ha.control.stall(true);
    try {
      const started = Date.now();
      const got = await call(t, 'homeassistant.get_states');
      expect(got.reason).toBe('TIMEOUT');
      expect(got.errors[0]).toContain('homeassistant.timeout_seconds');
      expect(Date.now() - started).toBeLessThan(4_000);
    } finally {
      ha.control.stall(false);
    }
  });

  it('restart: calls fail fast with 503 while down, then it reconnects, resubscribes, events flow', async () => {
    await ha.control.stop();
    await vi.waitFor(() => expect(haStatus(t)?.connected).toBe(false));
    const token = await registerAndToken(t.app);
    const started = Date.now();
    const down = await t.app.inject({
      method: 'POST',
      url: '/execute',
      headers: { authorization: `Bearer ${token}` },
      payload: { type: 'request', action: 'homeassistant.get_states' },
    });
    expect(Date.now() - started).toBeLessThan(500);
    expect(down.statusCode).toBe(503);
    expect(down.body).toMatch(/is not connected: .*retrying in \d+ s/);
    expect(haStatus(t)!.detail).toContain('retrying in');

    await ha.control.start();
    await vi.waitFor(() => expect(haStatus(t)?.connected).toBe(true), { timeout: 10_000 });
    const last = Math.max(...ha.control.commands.map((c) => c.connection));
    expect(
      ha.control.commands
        .filter((c) => c.connection === last && c.message.type === 'subscribe_events')
        .map((c) => c.message.event_type),
    ).toEqual(['state_changed', 'doorbell_pressed']);
    expect(
      (await call(t, 'homeassistant.get_state', { entity_id: 'light.kitchen' })).errors,
    ).toEqual([]);
    await call(t, 'variable.set', { door: 'nothing yet' });
    ha.control.setState('binary_sensor.front_door', 'off');
    ha.control.setState('binary_sensor.front_door', 'on');
    await vi.waitFor(async () => expect(await variable(t, 'door')).toBe('on/off'));
  });
});
