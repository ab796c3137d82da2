import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { WebSocket } from 'ws';
import { startHomeAssistantEmulator } from './index.ts';
import type { HomeAssistantEmulator } from './index.ts';

// Fixtures copied from Home Assistant's WebSocket API documentation,
// https://developers.home-assistant.io/docs/api/websocket (docs/api/websocket.md in
// github.com/home-assistant/developers.home-assistant). The emulator's answers must have the same
// shape: the same keys, with values of the same types.
const DOC = {
  auth_required: { type: 'auth_required', ha_version: '2021.5.3' },
  auth_ok: { type: 'auth_ok', ha_version: '2021.5.3' },
  auth_invalid: { type: 'auth_invalid', message: 'Invalid password' },
  subscribed: { id: 18, type: 'result', success: true, result: null },
  state_changed_event: {
    id: 18,
    type: 'event',
    event: {
      data: {
        entity_id: 'light.bed_light',
        new_state: {
          entity_id: 'light.bed_light',
          last_changed: '2016-11-26T01:37:24.265390+00:00',
          state: 'on',
          attributes: { brightness: 180, friendly_name: 'Bed Light' },
          last_updated: '2016-11-26T01:37:24.265390+00:00',
          context: {
            id: '326ef27d19415c60c492fe330945f954',
            parent_id: null,
            user_id: '31ddb597e03147118cf8d2f8fbea5553',
          },
        },
        old_state: {
          entity_id: 'light.bed_light',
          last_changed: '2016-11-26T01:37:10.466994+00:00',
          state: 'off',
          attributes: { supported_features: 147, friendly_name: 'Bed Light' },
          last_updated: '2016-11-26T01:37:10.466994+00:00',
          context: {
            id: 'e4af5b117137425e97658041a0538441',
            parent_id: null,
            user_id: '31ddb597e03147118cf8d2f8fbea5553',
          },
        },
      },
      event_type: 'state_changed',
      time_fired: '2016-11-26T01:37:24.265429+00:00',
      origin: 'LOCAL',
      context: {
        id: '326ef27d19415c60c492fe330945f954',
        parent_id: null,
        user_id: '31ddb597e03147118cf8d2f8fbea5553',
      },
    },
  },
  unsubscribed: { id: 19, type: 'result', success: true, result: null },
  fire_event_result: {
    id: 24,
    type: 'result',
    success: true,
    result: {
      context: {
        id: '326ef27d19415c60c492fe330945f954',
        parent_id: null,
        user_id: '31ddb597e03147118cf8d2f8fbea5553',
      },
    },
  },
  call_service_result: {
    id: 24,
    type: 'result',
    success: true,
    result: {
      context: {
        id: '326ef27d19415c60c492fe330945f954',
        parent_id: null,
        user_id: '31ddb597e03147118cf8d2f8fbea5553',
      },
      response: null,
    },
  },
  pong: { id: 19, type: 'pong' },
  error: {
    id: 12,
    type: 'result',
    success: false,
    error: {
      code: 'invalid_format',
      message:
        "Message incorrectly formatted: expected str for dictionary value @ data['event_type']. Got 100",
    },
  },
};

/** The shape of a JSON value: its keys and the types of its values (ids and user ids may be null). */
function shape(value: unknown, key = ''): unknown {
  if (key === 'user_id' || key === 'parent_id') return 'string|null';
  if (key === 'attributes') return 'object';
  if (Array.isArray(value)) return value.length ? [shape(value[0])] : [];
  if (value && typeof value === 'object')
    return Object.fromEntries(
      Object.keys(value)
        .sort()
        .map((k) => [k, shape((value as Record<string, unknown>)[k], k)]),
    );
  return value === null ? null : typeof value;
}

/** A raw client: every message received is queued, `next()` takes the oldest. */
async function connect(ha: HomeAssistantEmulator) {
  const socket = new WebSocket(`${ha.url.replace('http', 'ws')}/api/websocket`);
  const queue: unknown[] = [];
  const waiters: Array<(m: unknown) => void> = [];
  socket.on('message', (raw) => {
    const msg = JSON.parse((raw as Buffer).toString()) as unknown;
    const waiter = waiters.shift();
    if (waiter) waiter(msg);
    else queue.push(msg);
  });
  const closed = new Promise<void>((resolve) => socket.on('close', () => resolve()));
  await new Promise((resolve, reject) => socket.once('open', resolve).once('error', reject));
  return {
    send: (m: unknown) => socket.send(JSON.stringify(m)),
    next: () =>
      queue.length
        ? Promise.resolve(queue.shift() as Record<string, unknown>)
        : new Promise<Record<string, unknown>>((resolve) =>
            waiters.push(resolve as (m: unknown) => void),
          ),
    closed,
    close: () => socket.close(),
  };
}

describe('the emulator answers as the WebSocket API documentation shows', () => {
  let ha: HomeAssistantEmulator;
  beforeAll(async () => {
    ha = await startHomeAssistantEmulator({ token: 'ABCDEFGH' });
  });
  afterAll(async () => {
    await ha?.close();
  });

  it('authentication: auth_required, then auth_ok for the right token', async () => {
    const c = await connect(ha);
    expect(shape(await c.next())).toEqual(shape(DOC.auth_required));
    c.send({ type: 'auth', access_token: 'ABCDEFGH' });
    expect(shape(await c.next())).toEqual(shape(DOC.auth_ok));
    c.close();
  });

  it('auth_invalid for a wrong token, and the session is closed', async () => {
    const c = await connect(ha);
    await c.next();
    c.send({ type: 'auth', access_token: 'wrong' });
    expect(shape(await c.next())).toEqual(shape(DOC.auth_invalid));
    await c.closed;
  });

  it('commands: subscribe, state_changed event, unsubscribe, fire_event, call_service, ping, errors', async () => {
    const c = await connect(ha);
    await c.next();
    c.send({ type: 'auth', access_token: 'ABCDEFGH' });
    await c.next();
    c.send({ id: 18, type: 'subscribe_events', event_type: 'state_changed' });
    expect(await c.next()).toEqual(DOC.subscribed);

    c.send({
      id: 19,
      type: 'call_service',
      domain: 'light',
      service: 'turn_on',
      target: { entity_id: 'light.bed_light' },
    });
    const event = await c.next();
    expect(shape(event)).toEqual(shape(DOC.state_changed_event));
    expect(event).toMatchObject({
      id: 18,
      event: {
        data: {
          entity_id: 'light.bed_light',
          old_state: { state: 'off' },
          new_state: { state: 'on' },
        },
      },
    });
    const called = await c.next();
    expect(shape({ ...called, id: 24 })).toEqual(shape(DOC.call_service_result));

    c.send({ id: 20, type: 'unsubscribe_events', subscription: 18 });
    expect(await c.next()).toEqual({ ...DOC.unsubscribed, id: 20 });

    c.send({
      id: 24,
      type: 'fire_event',
      event_type: 'mydomain_event',
      event_data: { device_id: 'my-device-id', type: 'motion_detected' },
    });
    expect(shape(await c.next())).toEqual(shape(DOC.fire_event_result));

    c.send({ id: 25, type: 'ping' });
    expect(await c.next()).toEqual({ ...DOC.pong, id: 25 });

    c.send({ id: 26, type: 'fire_event', event_type: 100 });
    expect(shape(await c.next())).toEqual(shape(DOC.error));

    c.send({ id: 27, type: 'get_states' });
    const states = await c.next();
    expect(shape((states.result as unknown[])[0])).toEqual(
      shape(DOC.state_changed_event.event.data.new_state),
    );
    c.close();
  });

  it('control: an entity set from outside and removed fires state_changed; stall silences pings', async () => {
    const c = await connect(ha);
    await c.next();
    c.send({ type: 'auth', access_token: 'ABCDEFGH' });
    await c.next();
    c.send({ id: 1, type: 'subscribe_events' });
    await c.next();
    ha.control.setState('binary_sensor.front_door', 'on');
    expect(await c.next()).toMatchObject({
      event: { event_type: 'state_changed', data: { new_state: { state: 'on' } } },
    });
    ha.control.removeEntity('binary_sensor.front_door');
    expect(await c.next()).toMatchObject({
      event: { data: { entity_id: 'binary_sensor.front_door', new_state: null } },
    });
    c.send({ id: 2, type: 'ping' });
    expect(await c.next()).toEqual({ id: 2, type: 'pong' });
    c.send({ id: 2, type: 'ping' });
    expect(await c.next()).toMatchObject({ success: false, error: { code: 'id_reuse' } });
    ha.control.stall(true);
    c.send({ id: 3, type: 'ping' });
    await vi.waitFor(() => expect(ha.control.ignored()).toBe(1));
    ha.control.stall(false);
    c.send({ id: 4, type: 'ping' });
    expect(await c.next()).toEqual({ id: 4, type: 'pong' });
    ha.control.closeConnections();
    await c.closed;
  });
});
