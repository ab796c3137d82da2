import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { websocketUrl } from '../../../src/plugins/homeassistant/config.ts';
import { startHomeAssistantEmulator } from '../../../tools/homeassistant-emulator/index.ts';
import type { HomeAssistantEmulator } from '../../../tools/homeassistant-emulator/index.ts';
import { makeApp } from '../../helpers/service.ts';
import type { TestApp } from '../../helpers/service.ts';
import { call, haApp } from './helpers.ts';

describe('homeassistant configuration', () => {
  it('derives the WebSocket address from the URL: ws for http, wss for https, under its path', () => {
    expect(websocketUrl('http://homeassistant.local:8123')).toBe(
      'ws://homeassistant.local:8123/api/websocket',
    );
    expect(websocketUrl('https://ha.example.org/')).toBe('wss://ha.example.org/api/websocket');
    expect(websocketUrl('https://example.org/ha/?x=1')).toBe('wss://example.org/ha/api/websocket');
  });

  it('refuses a URL that is not http(s), and a missing token, naming the key', async () => {
    await expect(makeApp('homeassistant:\n  url: ftp://ha.local\n  token: t\n')).rejects.toThrow(
      /homeassistant[.\s\S]*url/,
    );
    await expect(makeApp('homeassistant:\n  url: http://ha.local:8123\n')).rejects.toThrow(/token/);
  });
});

describe('homeassistant forwarding only some event types', () => {
  let ha: HomeAssistantEmulator;
  let t: TestApp;
  const kinds: string[] = [];

  beforeAll(async () => {
    ha = await startHomeAssistantEmulator({ token: 'tok' });
    t = await haApp(ha.url, 'tok', { section: '  events: [doorbell_pressed]\n' });
    t.service.events.subscribe(({ event }) => {
      kinds.push(String(event.args.type));
    });
  });
  afterAll(async () => {
    await t?.close();
    await ha?.close();
  });

  it('forwards the listed types only, and still knows the entities (state_changed is followed)', async () => {
    ha.control.setState('light.kitchen', 'on');
    ha.control.removeEntity('switch.coffee_maker');
    await call(t, 'homeassistant.fire_event', { event_type: 'doorbell_pressed' });
    await call(t, 'homeassistant.fire_event', { event_type: 'not_listed' });
    const gone = await call(t, 'homeassistant.turn_on', { entity_id: 'switch.coffee_maker' });
    expect(gone.reason).toBe('NOT_FOUND');
    await call(t, 'homeassistant.fire_event', { event_type: 'doorbell_pressed' });
    await expect.poll(() => kinds.filter((k) => k.endsWith('.HomeAssistantEvent')).length).toBe(2);
    expect(kinds.filter((k) => k.includes('homeassistant.'))).toEqual([
      'pipit.message.event.homeassistant.HomeAssistantEvent',
      'pipit.message.event.homeassistant.HomeAssistantEvent',
    ]);
  });
});
