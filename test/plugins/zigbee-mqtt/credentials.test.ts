import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { serviceStatus } from '../../../src/control/commands.ts';
import { startZigbee2MqttEmulator } from '../../../tools/zigbee2mqtt-emulator/index.ts';
import type { Zigbee2MqttEmulator } from '../../../tools/zigbee2mqtt-emulator/index.ts';
import { makeApp } from '../../helpers/service.ts';
import type { TestApp } from '../../helpers/service.ts';
import { call } from '../call.ts';
import { startBroker } from '../mqtt/broker.ts';
import type { Broker } from '../mqtt/broker.ts';

// zigbee.mqtt against a mosquitto that only lets known users in.

let broker: Broker;
let emu: Zigbee2MqttEmulator;
const apps: TestApp[] = [];

beforeAll(async () => {
  broker = await startBroker({ users: { bridge: 'bridge-secret', pipit: 'pipit-secret' } });
  emu = await startZigbee2MqttEmulator({
    brokerUrl: broker.url,
    username: 'bridge',
    password: 'bridge-secret',
  });
});
afterAll(async () => {
  for (const t of apps) await t.close();
  await emu?.close();
  await broker?.stop();
});

async function app(password: string): Promise<TestApp> {
  const t = await makeApp(
    `zigbee.mqtt:\n  host: 127.0.0.1\n  port: ${broker.port}\n  username: pipit\n  password: ${password}\n  reconnect_min_seconds: 0.1\n  reconnect_max_seconds: 0.5\n`,
  );
  apps.push(t);
  return t;
}
const link = (t: TestApp) =>
  serviceStatus(t.service).plugins.find((p) => p.name === 'zigbee.mqtt')?.link;

describe('zigbee.mqtt broker credentials', () => {
  it('refused credentials: the status and the actions name the keys to fix, not the password', async () => {
    const t = await app('wrong-password');
    await vi.waitFor(() =>
      expect(link(t)?.detail).toMatch(
        /refused the credentials .*check zigbee\.mqtt\.username and zigbee\.mqtt\.password/,
      ),
    );
    expect(link(t)?.connected).toBe(false);
    expect(link(t)?.detail).not.toContain('wrong-password');
    const res = await call(t, 'zigbee.mqtt.devices');
    expect(res.code).toBe('UNAVAILABLE');
    expect(res.errors[0]).toMatch(/refused the credentials/);
  });

  it('the right credentials connect', async () => {
    const t = await app('pipit-secret');
    await vi.waitFor(() => expect(link(t)?.connected).toBe(true));
    await vi.waitFor(async () =>
      expect((await call(t, 'zigbee.mqtt.devices')).output).toHaveLength(4),
    );
  });
});
