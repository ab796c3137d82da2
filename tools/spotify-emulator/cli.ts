import { parseArgs } from 'node:util';
import type { ParseArgsConfig } from 'node:util';
import { PIPIT_REDIRECT_URI } from './config.ts';
import { startSpotifyEmulator } from './index.ts';

// `npm run emulator -- --port 8888`: a demo emulator with a real-time clock and request logging.

const OPTIONS = {
  port: { type: 'string', default: '8888' },
  host: { type: 'string', default: '127.0.0.1' },
  seed: { type: 'string', default: '1' },
  'client-id': { type: 'string' },
  'client-secret': { type: 'string' },
  'public-client': { type: 'boolean', default: false },
  'redirect-uri': { type: 'string', multiple: true },
  mode: { type: 'string', default: 'development' },
  'player-success': { type: 'string', default: '204' },
  quiet: { type: 'boolean', default: false },
  help: { type: 'boolean', short: 'h', default: false },
} satisfies ParseArgsConfig['options'];

const USAGE = `Usage: npm run emulator -- [options]

A local emulator of Spotify's Accounts service (/authorize, /api/token) and Web API (/v1), with
a real-time clock and a request log. Details: tools/spotify-emulator/README.md.

Options:
  --port <n>              port to listen on (default 8888; 0 = any free port)
  --host <address>        address to listen on (default 127.0.0.1)
  --seed <n>              seed of the generated catalog, library and devices (default 1)
  --client-id <id>        the default app's client ID (default: random)
  --client-secret <s>     the default app's client secret (default: random)
  --public-client         the default app has no secret: PKCE only
  --redirect-uri <uri>    a redirect URI the app accepts; repeat for more
                          (default ${PIPIT_REDIRECT_URI}, Pipit's default;
                          on 127.0.0.1 any port is accepted)
  --mode <mode>           development (default) or extended (Extended Quota Mode)
  --player-success <s>    what player commands answer: 204 (default) or 200-text
  --quiet                 no request log
  -h, --help              print this help and exit
`;

function fail(message: string): never {
  process.stderr.write(`emulator: ${message}\n\n${USAGE}`);
  process.exit(2);
}

let values;
try {
  ({ values } = parseArgs({ options: OPTIONS }));
} catch (err) {
  fail((err as Error).message);
}
if (values.help) {
  process.stdout.write(USAGE);
  process.exit(0);
}
const port = Number(values.port);
if (!Number.isInteger(port) || port < 0 || port > 65535) fail(`--port: not a port: ${values.port}`);
if (!['development', 'extended'].includes(values.mode))
  fail(`--mode: expected development or extended, not ${values.mode}`);
if (!['204', '200-text'].includes(values['player-success']))
  fail(`--player-success: expected 204 or 200-text, not ${values['player-success']}`);

const emu = await startSpotifyEmulator({
  port,
  host: values.host,
  seed: Number(values.seed),
  mode: values.mode === 'extended' ? 'extended' : 'development',
  playerSuccess: values['player-success'] === '200-text' ? '200-text' : 204,
  clock: { start: Date.now(), realTime: true },
  logToStdout: !values.quiet,
  app: {
    ...(values['client-id'] ? { clientId: values['client-id'] } : {}),
    ...(values['public-client']
      ? { clientSecret: null }
      : values['client-secret']
        ? { clientSecret: values['client-secret'] }
        : {}),
    redirectUris: values['redirect-uri'] ?? [PIPIT_REDIRECT_URI],
  },
});

const demo = emu.control.mintToken({
  scopes: [
    'user-read-private',
    'user-read-playback-state',
    'user-modify-playback-state',
    'playlist-read-private',
    'user-library-read',
  ],
  ttlSeconds: 86_400,
});
console.log(`Spotify emulator listening on ${emu.url}
  Accounts:  ${emu.accountsUrl}/authorize  ${emu.accountsUrl}/api/token
  Web API:   ${emu.apiUrl}
  Control:   ${emu.url}/_emulator/...
  client_id:     ${emu.clientId}
  client_secret: ${emu.clientSecret ?? '(public client: PKCE)'}
  redirect URIs: ${emu.redirectUris.join(', ')}
  demo token (24 h): ${demo.accessToken}

Point Pipit at it (config.yaml), then connect in Settings → Integrations or with "pipit spotify login":
  music.spotify:
    client_id: ${emu.clientId}${emu.clientSecret ? `\n    client_secret: ${emu.clientSecret}` : ''}
    redirect_uri: ${emu.redirectUris[0]}   # must be one of the emulator's redirect URIs (--redirect-uri)
    api_url: ${emu.apiUrl}
    auth_url: ${emu.accountsUrl}`);

const stop = () => {
  void emu.close().then(() => process.exit(0));
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
