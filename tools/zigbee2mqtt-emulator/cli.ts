// Runs the emulated Zigbee2MQTT bridge on a broker until Ctrl-C:
//   npx node tools/zigbee2mqtt-emulator/cli.ts --broker mqtt://127.0.0.1:1883 [--prefix zigbee2mqtt] [--plain-state]
import { parseArgs } from 'node:util';
import { startZigbee2MqttEmulator } from './index.ts';

const { values } = parseArgs({
  options: {
    broker: { type: 'string', default: 'mqtt://127.0.0.1:1883' },
    prefix: { type: 'string', default: 'zigbee2mqtt' },
    'plain-state': { type: 'boolean', default: false },
  },
});

const emu = await startZigbee2MqttEmulator({
  brokerUrl: values.broker,
  prefix: values.prefix,
  stateFormat: values['plain-state'] ? 'plain' : 'json',
});
process.stdout.write(
  `Zigbee2MQTT emulator on ${values.broker}, base topic ${emu.prefix}: ${emu
    .devicesPayload()
    .map((d) => d.friendly_name)
    .join(', ')}\n`,
);
const stop = () => {
  void emu.close().then(() => process.exit(0));
};
process.once('SIGINT', stop);
process.once('SIGTERM', stop);
