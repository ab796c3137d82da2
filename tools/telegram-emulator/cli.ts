import { parseArgs } from 'node:util';
import { startTelegramEmulator } from './index.ts';

// `node tools/telegram-emulator/cli.ts --port 8081`: an emulated Bot API, for trying chat.telegram
// by hand.

const USAGE = `Usage: node tools/telegram-emulator/cli.ts [--port <n>] [--host <address>] [--token <t>] [--quiet]

An emulated Telegram Bot API server (getMe, getUpdates, sendMessage, sendPhoto, sendDocument).
Point chat.telegram at it with  api_url: http://127.0.0.1:<port>  and its token, then send the bot
a message as a user with
  curl -X POST -d '{"text":"/lights on"}' http://127.0.0.1:<port>/_control/message
Details: tools/telegram-emulator/README.md.
`;

const { values } = parseArgs({
  options: {
    port: { type: 'string', default: '8081' },
    host: { type: 'string', default: '127.0.0.1' },
    token: { type: 'string' },
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
  process.stderr.write(`telegram-emulator: --port: not a port: ${values.port}\n\n${USAGE}`);
  process.exit(2);
}
const emu = await startTelegramEmulator({
  port,
  host: values.host,
  logToStdout: !values.quiet,
  ...(values.token ? { token: values.token } : {}),
});
process.stdout.write(
  `Telegram Bot API emulator on ${emu.url}\nchat.telegram:\n  api_url: ${emu.url}\n  api_token: ${emu.token}\n`,
);
const shutdown = () => void emu.close().then(() => process.exit(0));
process.on('SIGINT', shutdown);
process.on('SIGTERM', shutdown);
