// Written against the public plugin API only, as a plugin package is (npm run lint:layers).
import { definePlugin } from '../api/index.ts';
import type { Bridge } from './bridge.ts';
import { storedUsername } from './bridge.ts';
import { HueClient, NOT_PAIRED } from './client.ts';
import { bridgeUrl, HueConfig } from './config.ts';
import { controlActions } from './control.ts';
import { connect } from './pairing.ts';
import { poll } from './poller.ts';
import { head } from './head.ts';
import { readActions } from './read.ts';

export default definePlugin({
  ...head,
  summary: 'Philips Hue lights through the bridge’s local REST API (v1).',
  config: HueConfig,
  actions: [connect, ...controlActions, ...readActions],
  init: (ctx) => {
    const { config, kv, signal } = ctx;
    const username = storedUsername(kv, config.bridge);
    const bridge: Bridge = {
      config,
      client: new HueClient(bridgeUrl(config.bridge), config.timeout_seconds),
      username,
      link: { connected: false, detail: username ? 'connecting' : NOT_PAIRED, retryAt: 0 },
      setStatus: (status) => ctx.setStatus(status),
      kick: () => {},
    };
    ctx.setStatus({ connected: false, detail: username ? 'connecting' : NOT_PAIRED });
    void poll(bridge, (kind, fields) => ctx.fire(kind, fields), signal);
    return bridge;
  },
});
