import { parseArgs } from 'node:util';
import { startSpotifyEmulator } from './index.ts';

// `npm run emulator -- --port 8888`: a demo emulator with a real-time clock and request logging.
const { values } = parseArgs({
  options: {
    port: { type: 'string', default: '8888' },
    host: { type: 'string', default: '127.0.0.1' },
    seed: { type: 'string', default: '1' },
    'client-id': { type: 'string' },
    'client-secret': { type: 'string' },
    'redirect-uri': { type: 'string', multiple: true },
    mode: { type: 'string', default: 'development' },
    'player-success': { type: 'string', default: '204' },
    quiet: { type: 'boolean', default: false },
  },
});

const emu = await startSpotifyEmulator({
  port: Number(values.port),
  host: values.host,
  seed: Number(values.seed),
  mode: values.mode === 'extended' ? 'extended' : 'development',
  playerSuccess: values['player-success'] === '200-text' ? '200-text' : 204,
  clock: { start: Date.now(), realTime: true },
  logToStdout: !values.quiet,
  app: {
    ...(values['client-id'] ? { clientId: values['client-id'] } : {}),
    ...(values['client-secret'] ? { clientSecret: values['client-secret'] } : {}),
    ...(values['redirect-uri'] ? { redirectUris: values['redirect-uri'] } : {}),
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
  client_secret: ${emu.clientSecret ?? '(public client)'}
  redirect URIs: ${emu.redirectUris.join(', ')}
  demo token (24 h): ${demo.accessToken}`);

const stop = () => {
  void emu.close().then(() => process.exit(0));
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
