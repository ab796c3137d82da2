// Platypush's event names, unknown well-formed kinds, phrase hooks, and hook steps written
// the Platypush way.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { closeAll, connect } from '../http/ws-client.ts';
import { makeApp, registerAndToken } from '../helpers/service.ts';
import type { TestApp } from '../helpers/service.ts';

const YAML = `event.namespace: platypush
event.hook.PlaySong:
  if:
    type: platypush.message.event.custom.CustomEvent
    subtype: 'play \${title} by \${artist}'
  then:
    - action: variable.set
      args:
        last_song: '\${title} / \${artist}'
event.hook.Zwave:
  if:
    type: platypush.message.event.zwave.mqtt.ZwaveValueChangedEvent
    device: lamp
  then:
    - if \${properties['state'] == 'ON'}:
        - action: variable.set
          args: {lamp: 'on'}
    - else:
        - action: variable.set
          args: {lamp: 'off'}
`;

let t: TestApp;
let ws: string;
let token: string;
beforeAll(async () => {
  t = await makeApp(YAML);
  token = await registerAndToken(t.app);
  ws = (await t.app.listen({ port: 0, host: '127.0.0.1' })).replace('http', 'ws');
});
afterAll(() => t.close());
afterEach(() => closeAll());

const fire = (args: Record<string, unknown>) =>
  t.service.execute({ type: 'request', action: 'event.fire', args }, { transport: 'cli' });

describe('Platypush events', () => {
  it('with event.namespace: platypush, clients receive platypush.message.event.* kinds', async () => {
    const c = await connect(`${ws}/ws/events`, { headers: { authorization: `Bearer ${token}` } });
    c.send({ type: 'subscribe', events: ['CustomEvent'] });
    await c.next((f) => f.type === 'subscribed');
    await fire({ subtype: 'hello' });
    const event = await c.next((f) => f.type === 'event');
    expect(event.args.type).toBe('platypush.message.event.custom.CustomEvent');
  });

  it('a phrase hook binds the placeholders for its steps, case-insensitively', async () => {
    await fire({ subtype: 'Play  Yesterday by The Beatles' });
    await t.service.events.idle();
    expect(t.service.store.variables.get('last_song')).toBe('Yesterday / The Beatles');
  });

  it('a phrase that does not match runs nothing', async () => {
    t.service.store.variables.unset('last_song');
    await fire({ subtype: 'stop the music' });
    await t.service.events.idle();
    expect(t.service.store.variables.get('last_song')).toBeUndefined();
  });

  it('a client may publish a well-formed kind Pipit does not know; hooks match it', async () => {
    const c = await connect(`${ws}/ws/events`, { headers: { authorization: `Bearer ${token}` } });
    for (const [state, expected] of [
      ['ON', 'on'],
      ['OFF', 'off'],
    ] as const) {
      c.send({
        type: 'event',
        args: {
          type: 'platypush.message.event.zwave.mqtt.ZwaveValueChangedEvent',
          device: 'lamp',
          properties: { state },
        },
      });
      const echoed = await c.next((f) => f.type === 'event' && f.args.properties?.state === state);
      expect(echoed.args.type).toBe('platypush.message.event.zwave.mqtt.ZwaveValueChangedEvent');
      await t.service.events.idle();
      expect(t.service.store.variables.get('lamp')).toBe(expected);
    }
  });

  it('refuses a kind that is not well-formed, naming the known ones', async () => {
    const c = await connect(`${ws}/ws/events`, { headers: { authorization: `Bearer ${token}` } });
    c.send({ type: 'event', args: { type: 'NotAKindEvent' } });
    expect((await c.next((f) => f.type === 'error')).errors[0]).toMatch(
      /unknown event kind "NotAKindEvent"/,
    );
  });

  it("variable.get takes default_value (Platypush's name for default)", async () => {
    const { message } = await t.service.execute(
      { type: 'request', action: 'variable.get', args: { name: 'nope', default_value: 42 } },
      { transport: 'cli' },
    );
    expect(message.response.output).toEqual({ nope: 42 });
  });
});
