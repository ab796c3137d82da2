import { expect, vi } from 'vitest';
import { serviceStatus } from '../../../src/control/commands.ts';
import { startZigbee2MqttEmulator } from '../../../tools/zigbee2mqtt-emulator/index.ts';
import type {
  EmulatorOptions,
  Zigbee2MqttEmulator,
} from '../../../tools/zigbee2mqtt-emulator/index.ts';
import { makeApp } from '../../helpers/service.ts';
import type { TestApp } from '../../helpers/service.ts';
import { startBroker } from '../mqtt/broker.ts';
import type { Broker } from '../mqtt/broker.ts';

/** A real mosquitto, the emulated bridge on it, and a service with zigbee.mqtt pointed at both. */
export interface ZigbeeSetup {
  broker: Broker;
  emu: Zigbee2MqttEmulator;
  t: TestApp;
  /** Every zigbee.mqtt event raised, by short kind, in order. */
  events: Array<{ kind: string; args: Record<string, unknown> }>;
  /** What `pipit status` says of the plugin's link. */
  link(): { connected: boolean; detail?: string } | undefined;
  close(): Promise<void>;
}

/**
 * Starts everything and waits until the plugin is connected, the bridge online and its devices
 * known. `timeout` is the plugin's request timeout in seconds.
 *
 * @example
 * const z = await zigbeeSetup({ yaml: 'event.hook.X: ...' });
 */
export async function zigbeeSetup(
  opts: { yaml?: string; timeout?: number; emulator?: Partial<EmulatorOptions> } = {},
): Promise<ZigbeeSetup> {
  const broker = await startBroker();
  let emu: Zigbee2MqttEmulator | undefined;
  let t: TestApp | undefined;
  try {
    emu = await startZigbee2MqttEmulator({ brokerUrl: broker.url, ...opts.emulator });
    t = await makeApp(
      `zigbee.mqtt:\n  host: 127.0.0.1\n  port: ${broker.port}\n  timeout: ${opts.timeout ?? 1}\n  reconnect_min_seconds: 0.1\n  reconnect_max_seconds: 0.5\n${opts.yaml ?? ''}`,
    );
    const app = t;
    const events: ZigbeeSetup['events'] = [];
    app.service.events.bus.subscribe(({ event }) => {
      const m = /\.zigbee\.mqtt\.(\w+)$/.exec(event.args.type);
      if (m) events.push({ kind: m[1]!, args: event.args });
    });
    const link = () =>
      serviceStatus(app.service).plugins.find((p) => p.name === 'zigbee.mqtt')?.link;
    await vi.waitFor(() => expect(link()?.connected).toBe(true), { timeout: 5000 });
    await vi.waitFor(
      async () => {
        const res = await app.service.execute(
          { type: 'request', action: 'zigbee.mqtt.devices', args: {} },
          { transport: 'test' },
        );
        expect(res.message.response.output).toHaveLength(4);
      },
      { timeout: 5000 },
    );
    const started = { emu, t };
    return {
      broker,
      emu,
      t,
      events,
      link,
      async close() {
        await started.t.close();
        await started.emu.close().catch(() => undefined);
        await broker.stop();
      },
    };
  } catch (err) {
    await t?.close();
    await emu?.close().catch(() => undefined);
    await broker.stop();
    throw err;
  }
}

/**
 * The plugin's own error code: execute() reports most errors of an action as ACTION_FAILED with
 * the thrown code as `reason` (UNAVAILABLE and CONFLICT pass through as they are).
 */
export function codeOf(res: { code: string | undefined; reason: unknown }): unknown {
  return res.code === 'ACTION_FAILED' && res.reason ? res.reason : res.code;
}
