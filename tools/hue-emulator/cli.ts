import { parseArgs } from 'node:util';
import { startHueEmulator } from './index.ts';

// `node tools/hue-emulator/cli.ts --port 8080`: an emulated Hue bridge, for trying light.hue by hand.

const USAGE = `Usage: node tools/hue-emulator/cli.ts [--port <n>] [--host <address>] [--quiet]

An emulated Philips Hue bridge (v1 REST API under /api). Press its link button with
  curl -X POST http://127.0.0.1:<port>/_control/press-button
then run light.hue.connect within 30 s. Details: tools/hue-emulator/README.md.
`;

const { values } = parseArgs({
  options: {
    port: { type: 'string', default: '8080' },
    host: { type: 'string', default: '127.0.0.1' },
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
  process.stderr.write(`hue-emulator: --port: not a port: ${values.port}\n\n${USAGE}`);
  process.exit(2);
}
const emu = await startHueEmulator({ port, host: values.host, logToStdout: !values.quiet });
process.stdout.write(`Hue bridge emulator on ${emu.url} (light.hue: bridge: ${emu.host})\n`);
const shutdown = () => void emu.close().then(() => process.exit(0));
process.on('SIGINT', shutdown);
process.on('SIGTERM', shutdown);
