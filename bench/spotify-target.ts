// Spotify benchmark target, run in a child process pinned to its own core: the emulator, standing
// in for Spotify's servers (which do not share a core with Pipit either: in one process, the
// emulator's page rendering and JSON would compete with the client it serves). Seeds enough
// playlists for get_playlists limit 1000 to span 20 pages, then prints one JSON line (addresses,
// credentials, the 5,000-item playlist's ID) and waits; faults and the request log are driven
// through the emulator's control routes (/_emulator/...).
import { startSpotifyEmulator } from '../tools/spotify-emulator/index.ts';

const emu = await startSpotifyEmulator({
  app: { redirectUris: ['http://127.0.0.1/spotify/auth_callback'] },
});
const { accessToken } = emu.control.mintToken({ scopes: ['playlist-modify-private'] });
for (let i = 0; i < 1000 - 45; i++) {
  const res = await fetch(`${emu.apiUrl}/me/playlists`, {
    method: 'POST',
    headers: { authorization: `Bearer ${accessToken}`, 'content-type': 'application/json' },
    body: JSON.stringify({ name: `Bench #${i}`, public: false }),
  });
  await res.text();
}
process.stdout.write(
  `${JSON.stringify({
    url: emu.url,
    apiUrl: emu.apiUrl,
    accountsUrl: emu.accountsUrl,
    clientId: emu.clientId,
    clientSecret: emu.clientSecret,
    bigPlaylistId: emu.control.seed.bigPlaylistId,
  })}\n`,
);

const stop = async () => {
  await emu.close();
  process.exit(0);
};
process.on('SIGTERM', () => void stop());
process.stdin.on('end', () => void stop());
process.stdin.resume();
