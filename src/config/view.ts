import type { LoadedConfig } from './load.ts';

// Setting names whose values never reach an expression (Config.get): credentials.
const SECRET = /pass(word)?|secret|token|key|credential|auth/i;

function masked(value: unknown, depth = 0): unknown {
  if (depth > 16 || value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map((v) => masked(v, depth + 1));
  return Object.fromEntries(
    Object.entries(value).map(([k, v]) => [
      k,
      SECRET.test(k) ? '[redacted]' : masked(v, depth + 1),
    ]),
  );
}

/**
 * What `Config.get('key')` in a `${…}` expression can read: the running configuration's top-level
 * settings (`device_id`, `workdir`, `scripts_dir`, `backend.http`, `logging`, `event.namespace`)
 * and each enabled plugin's section, read-only, with credentials (keys such as `password`,
 * `client_secret`, `token`) replaced by "[redacted]". Unknown keys are undefined.
 *
 * @example
 * configView(config)('device_id'); // 'kitchen'
 * configView(config)('music.spotify'); // { client_id: 'abc', client_secret: '[redacted]', ... }
 */
export function configView(config: LoadedConfig): (key: string) => unknown {
  const view = new Map<string, unknown>([
    ['device_id', config.deviceId],
    ['workdir', config.workdir],
    ['scripts_dir', config.scriptsDir],
    ['backend.http', config.http ? masked(config.http) : undefined],
    ['logging', { level: config.logLevel, format: config.logFormat }],
    ['event.namespace', config.eventNamespace],
  ]);
  for (const [name, { config: section }] of config.plugins) view.set(name, masked(section));
  return (key) => {
    const value = view.get(key);
    // A copy: an expression can never change the configuration it reads.
    return value === undefined ? undefined : structuredClone(value);
  };
}
