import { didYouMean } from '../lib/suggest.ts';
import { missingPluginHint } from '../core/platypush-plugins.ts';

/** A top-level entry of the configuration as read, with the file it came from. */
export interface CompatEntry {
  value: unknown;
  source: string;
}

// Top-level keys that only mean something to Platypush, with what Pipit does instead.
const IGNORED_TOP_LEVEL: Record<string, string> = {
  'main.db': 'Pipit keeps its data in <workdir>/pipit.db (SQLite, created for you)',
  cachedir: 'Pipit keeps no cache directory',
  dashboards_dir: 'Pipit has no dashboards',
  token:
    'Pipit has no global token: each client gets its own (POST /auth, Settings → Tokens, pipit token create)',
  environment: 'Pipit does not export environment variables from its configuration',
  constants: 'Pipit has no configuration constants: use variable.set, or a procedure argument',
  ctrl_sock: 'Pipit has its own control socket in the workdir (control/pipit.sock)',
};

// backend.http keys Platypush has and Pipit does not need.
const IGNORED_HTTP: Record<string, string> = {
  num_workers: 'Pipit serves every request from one process, without workers',
  use_werkzeug_server: 'Pipit has one server',
  resource_dirs: 'Pipit does not serve extra static folders',
  secret_key_file: 'Pipit keeps its signing key in <workdir>/jwt.key',
  disable_websockets: 'Pipit always serves /ws/events and /ws/requests',
  websocket_port: 'Pipit serves WebSockets on the HTTP port',
  ssl_cert: 'terminate HTTPS in a reverse proxy (see "Operating Pipit")',
  ssl_key: 'terminate HTTPS in a reverse proxy (see "Operating Pipit")',
  ssl_cafile: 'terminate HTTPS in a reverse proxy (see "Operating Pipit")',
  ssl_capath: 'terminate HTTPS in a reverse proxy (see "Operating Pipit")',
  ssl_protocol: 'terminate HTTPS in a reverse proxy (see "Operating Pipit")',
};

// Keys of plugin sections that Platypush's plugins take and Pipit's do not need.
const IGNORED_IN_PLUGINS: Record<string, Record<string, string>> = {
  mqtt: {
    run_topic_prefix:
      'Pipit runs no actions from MQTT messages (anyone who can publish could run them): write a hook on MQTTMessageEvent that checks the message',
    listeners: 'subscribe with mqtt.topics (the section) or the mqtt.subscribe action',
    tls_version: "Pipit uses Node's TLS defaults",
    tls_ciphers: "Pipit uses Node's TLS defaults",
  },
};

const PYTHON_LEVELS: Record<string, string> = {
  CRITICAL: 'fatal',
  FATAL: 'fatal',
  ERROR: 'error',
  WARNING: 'warn',
  WARN: 'warn',
  INFO: 'info',
  DEBUG: 'debug',
  NOTSET: 'trace',
};

const PIPIT_LOG_FORMATS = new Set(['auto', 'pretty', 'json']);

function isMapping(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function redisUrl(section: Record<string, unknown>): string {
  const host = typeof section.host === 'string' ? section.host : '127.0.0.1';
  const port =
    typeof section.port === 'number' || typeof section.port === 'string' ? section.port : 6379;
  const user = typeof section.username === 'string' ? encodeURIComponent(section.username) : '';
  const password = typeof section.password === 'string' ? encodeURIComponent(section.password) : '';
  const auth = user || password ? `${user}${password ? `:${password}` : ''}@` : '';
  const db = typeof section.db === 'number' ? `/${section.db}` : '';
  return `redis://${auth}${host}:${port}${db}`;
}

/**
 * Reads a Platypush configuration the way Pipit can use it, in place: keys that only mean something
 * to Platypush are dropped with one warning each saying what Pipit does instead; Python logging
 * levels become Pipit's; the `redis` and `backend.redis` connection forms become `redis: {url}`;
 * sections of plugins and backends Pipit does not have are dropped with a warning (and a "did you
 * mean" against Pipit's plugins). Keys it does not recognise inside Pipit's own sections are left
 * for the schema, so that a misspelling there is still an error.
 *
 * @example
 * const warnings = adaptPlatypushConfig(raw, { coreKeys, plugins: ['utils', 'music.spotify'] });
 */
export function adaptPlatypushConfig(
  raw: Map<string, CompatEntry>,
  known: {
    coreKeys: ReadonlySet<string>;
    plugins: readonly string[];
    isUserSection: (key: string) => boolean;
  },
): string[] {
  const warnings: string[] = [];
  const warn = (source: string, text: string) => warnings.push(`${source}: ${text}`);

  for (const [key, reason] of Object.entries(IGNORED_TOP_LEVEL)) {
    const entry = raw.get(key);
    if (!entry) continue;
    raw.delete(key);
    warn(entry.source, `"${key}" is Platypush's and is ignored: ${reason}`);
  }

  const logging = raw.get('logging');
  if (logging && isMapping(logging.value)) {
    const section = { ...logging.value };
    const level =
      typeof section.level === 'string' ? PYTHON_LEVELS[section.level.toUpperCase()] : undefined;
    if (level) section.level = level;
    for (const k of ['filename', 'datefmt', 'version']) {
      if (!(k in section)) continue;
      delete section[k];
      warn(
        logging.source,
        `logging.${k} is Platypush's and is ignored: Pipit logs to standard output (journald, docker logs); redirect it if you need a file`,
      );
    }
    if (typeof section.format === 'string' && !PIPIT_LOG_FORMATS.has(section.format)) {
      delete section.format;
      warn(
        logging.source,
        'logging.format is a Python format string, which Pipit ignores: Pipit writes readable lines on a terminal and JSON lines elsewhere (logging.format: auto | pretty | json)',
      );
    }
    raw.set('logging', { ...logging, value: section });
  }

  const http = raw.get('backend.http');
  if (http && isMapping(http.value)) {
    const section = { ...http.value };
    for (const k of Object.keys(section)) {
      const reason = IGNORED_HTTP[k] ?? (k.startsWith('ssl_') ? IGNORED_HTTP.ssl_cert : undefined);
      if (!reason) continue;
      delete section[k];
      warn(http.source, `backend.http.${k} is Platypush's and is ignored: ${reason}`);
    }
    raw.set('backend.http', { ...http, value: section });
  }

  const redis = raw.get('redis');
  if (redis && isMapping(redis.value) && !('url' in redis.value)) {
    raw.set('redis', { ...redis, value: { url: redisUrl(redis.value) } });
    warn(
      redis.source,
      'redis: the host/port form is read as redis.url; Pipit needs no Redis for one machine, and runs alone without redis.secret; to join instances in a cluster, write redis: {url, secret} (see "Several machines")',
    );
  }
  const backendRedis = raw.get('backend.redis');
  if (backendRedis) {
    raw.delete('backend.redis');
    const args =
      isMapping(backendRedis.value) && isMapping(backendRedis.value.redis_args)
        ? backendRedis.value.redis_args
        : isMapping(backendRedis.value)
          ? backendRedis.value
          : {};
    if (!raw.has('redis'))
      raw.set('redis', { source: backendRedis.source, value: { url: redisUrl(args) } });
    warn(
      backendRedis.source,
      "backend.redis is Platypush's message bus: Pipit reads its connection as redis.url and needs no Redis for one machine",
    );
  }

  for (const [plugin, keys] of Object.entries(IGNORED_IN_PLUGINS)) {
    const entry = raw.get(plugin);
    if (!entry || !isMapping(entry.value)) continue;
    const section = { ...entry.value };
    for (const [k, reason] of Object.entries(keys)) {
      if (!(k in section)) continue;
      delete section[k];
      warn(entry.source, `${plugin}.${k} is Platypush's and is ignored: ${reason}`);
    }
    raw.set(plugin, { ...entry, value: section });
  }

  // Platypush 0.x received Telegram messages in backend.chat.telegram: its authorized_chat_ids
  // belong to Pipit's chat.telegram section, which does both halves (dropping them would let every
  // chat's messages reach the hooks).
  const telegramBackend = raw.get('backend.chat.telegram');
  if (telegramBackend) {
    raw.delete('backend.chat.telegram');
    const ids = isMapping(telegramBackend.value)
      ? telegramBackend.value.authorized_chat_ids
      : undefined;
    const name = ['chat.telegram', 'telegram'].find((k) => raw.has(k));
    const plugin = name ? raw.get(name) : undefined;
    if (plugin && isMapping(plugin.value)) {
      if (ids !== undefined && !('authorized_chat_ids' in plugin.value))
        raw.set(name!, { ...plugin, value: { ...plugin.value, authorized_chat_ids: ids } });
      warn(
        telegramBackend.source,
        `backend.chat.telegram is read into ${name}: Pipit's ${name} sends and receives${ids === undefined ? '' : ', and takes its authorized_chat_ids'}`,
      );
    } else
      warn(
        telegramBackend.source,
        'backend.chat.telegram is ignored: Pipit receives Telegram messages with a chat.telegram section (api_token, authorized_chat_ids)',
      );
  }

  // What is left and is not Pipit's: sections of plugins and backends Pipit does not have.
  for (const [key, entry] of [...raw]) {
    if (known.coreKeys.has(key) || known.isUserSection(key) || known.plugins.includes(key))
      continue;
    // A near-miss of one of Pipit's own keys (not a backend: Platypush has many) is a
    // misspelling: leave it to be refused.
    if (!key.startsWith('backend.') && didYouMean(key, known.coreKeys)) continue;
    raw.delete(key);
    const what = key.startsWith('backend.') ? 'backend' : 'plugin';
    const hint =
      what === 'plugin'
        ? missingPluginHint(key, known.plugins)
        : didYouMean(key, [...known.plugins, ...known.coreKeys]);
    warn(entry.source, `${what} ${key} is not available in Pipit; its section is ignored${hint}`);
  }
  return warnings;
}
