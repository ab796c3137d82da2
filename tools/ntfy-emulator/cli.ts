import { parseArgs } from 'node:util';
import { startNtfyEmulator } from './index.ts';

// `node tools/ntfy-emulator/cli.ts --port 8090`: an emulated ntfy server, for trying the ntfy
// plugin by hand.

const USAGE = `Usage: node tools/ntfy-emulator/cli.ts [--port <n>] [--host <address>]
       [--token <token>] [--user <name:password>] [--keepalive <seconds>] [--quiet]

An emulated ntfy server: publish (POST /<topic>, or JSON to /), subscribe (GET /<topics>/json,
?since=, ?poll=1). --token / --user protect every topic. Failures on demand:
  curl -X POST http://127.0.0.1:<port>/_control/fail -d '{"status":429}'
  curl -X POST http://127.0.0.1:<port>/_control/drop
Details: tools/ntfy-emulator/README.md.
`;

const { values } = parseArgs({
  options: {
    port: { type: 'string', default: '8090' },
    host: { type: 'string', default: '127.0.0.1' },
    token: { type: 'string', multiple: true },
    user: { type: 'string', multiple: true },
    keepalive: { type: 'string', default: '45' },
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
  process.stderr.write(`ntfy-emulator: --port: not a port: ${values.port}\n\n${USAGE}`);
  process.exit(2);
}
const users = Object.fromEntries(
  (values.user ?? []).map((u) => [u.slice(0, u.indexOf(':')), u.slice(u.indexOf(':') + 1)]),
);
const tokens = Object.fromEntries((values.token ?? []).map((t) => [t, 'token-user']));
const protect = values.user?.length || values.token?.length;
const emu = await startNtfyEmulator({
  port,
  host: values.host,
  keepaliveMs: Number(values.keepalive) * 1000,
  logToStdout: !values.quiet,
  ...(protect ? { auth: { users, tokens } } : {}),
});
process.stdout.write(`ntfy emulator on ${emu.url} (ntfy: server_url: ${emu.url})\n`);
const shutdown = () => void emu.close().then(() => process.exit(0));
process.on('SIGINT', shutdown);
process.on('SIGTERM', shutdown);
