// MQTT benchmark target, run in a child process pinned to its own core: a real Pipit service
// connected to the broker (PIPIT_BENCH_MQTT_PORT) whose event hook answers each message on
// bench/pipit/in by calling mqtt.publish to bench/pipit/out, and, in the same process, a bare MQTT.js
// client doing the same by hand (bench/bare/in -> bench/bare/out), with Nagle off as Pipit's
// connections have it. Prints one JSON line, then waits.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import mqtt from 'mqtt';
import { loadConfig } from '../src/config/load.ts';
import { createLogger } from '../src/core/logger.ts';
import { builtinPlugins } from '../src/plugins/index.ts';
import { noDelay } from '../src/plugins/mqtt/connection.ts';
import type { MqttState } from '../src/plugins/mqtt/state.ts';
import { createService } from '../src/app/service.ts';

const port = Number(process.env.PIPIT_BENCH_MQTT_PORT);
const dir = mkdtempSync(join(tmpdir(), 'pipit-bench-mqtt-'));
const configPath = join(dir, 'config.yaml');
writeFileSync(
  configPath,
  `device_id: bench
workdir: ./data
logging: {level: warn}
mqtt:
  host: 127.0.0.1
  port: ${port}
  topics: [bench/pipit/in]
event.hook.BenchEcho:
  if: {type: MQTTMessageEvent, topic: bench/pipit/in}
  then:
    - action: mqtt.publish
      args:
        topic: bench/pipit/out
        msg: \${msg}
`,
);
const service = await createService(loadConfig({ path: configPath, plugins: builtinPlugins }), {
  log: createLogger({ level: 'warn' }),
});
await (service.registry.plugins.get('mqtt')!.state as MqttState).main!.whenConnected(
  10_000,
  'bench',
);

const bare = await mqtt.connectAsync(`mqtt://127.0.0.1:${port}`, {
  clientId: 'bench-bare',
  reconnectPeriod: 0,
  resubscribe: false,
});
noDelay(bare);
bare.on('message', (_topic, payload) => bare.publish('bench/bare/out', payload));
await bare.subscribeAsync('bench/bare/in');

process.stdout.write(`${JSON.stringify({ ready: true })}\n`);

const stop = async () => {
  await bare.endAsync();
  await service.close();
  rmSync(dir, { recursive: true, force: true });
  process.exit(0);
};
process.on('SIGTERM', () => void stop());
process.stdin.on('end', () => void stop());
process.stdin.resume();
