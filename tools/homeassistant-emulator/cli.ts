import { parseArgs } from 'node:util';
import { startHomeAssistantEmulator } from './index.ts';

// `npx node tools/homeassistant-emulator/cli.ts --port 8123 --token s3cret`: an emulator to point
// Pipit's homeassistant plugin at, logging every command it receives.

const USAGE = `Usage: node tools/homeassistant-emulator/cli.ts [options]

An emulator of Home Assistant's WebSocket API (/api/websocket). Details:
tools/homeassistant-emulator/README.md.

Options:
  --port <n>       port to listen on (default 8123; 0 = any free port)
  --host <addr>    address to listen on (default 127.0.0.1)
  --token <t>      the long-lived access token it accepts (default emulator-token)
  --quiet          no log of the commands received
  -h, --help       print this help and exit
`;

const { values } = parseArgs({
  options: {
    port: { type: 'string', default: '8123' },
    host: { type: 'string', default: '127.0.0.1' },
    token: { type: 'string', default: 'emulator-token' },
    quiet: { type: 'boolean', default: false },
    help: { type: 'boolean', short: 'h', default: false },
  },
});
if (values.help) {
  process.stdout.write(USAGE);
  process.exit(0);
}
const port = Number(values.port);
if (!Number.isInteger(port) || port < 0 || port > 65535) {
  process.stderr.write(`emulator: --port: not a port: ${values.port}\n\n${USAGE}`);
  process.exit(2);
}
const ha = await startHomeAssistantEmulator({
  port,
  host: values.host,
  token: values.token,
  logToStdout: !values.quiet,
});
console.log(`Home Assistant emulator listening on ${ha.url}/api/websocket

Point Pipit at it (config.yaml):
  homeassistant:
    url: ${ha.url}
    token: ${ha.token}`);
const stop = () => void ha.close().then(() => process.exit(0));
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
