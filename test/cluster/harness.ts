// Three (or more) real Pipit processes joined by a real redis-server, for the cluster tests.
import { once } from 'node:events';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { spawn } from 'node:child_process';
import { freePort } from '../helpers/net.ts';
import { parseExposition } from '../helpers/prometheus.ts';
import type { Exposition } from '../helpers/prometheus.ts';
import { CLI, startPipitProcess } from '../helpers/process.ts';
import type { PipitProcess } from '../helpers/process.ts';
import { tempDir } from '../helpers/service.ts';
import { bearer, connect } from '../http/ws-client.ts';
import type { Client } from '../http/ws-client.ts';
import { startRedis } from './redis-server.ts';
import type { RedisServer } from './redis-server.ts';

/** A JSON answer, read field by field in assertions. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Json = Record<string, any>;

/** The secret every test instance shares (read through `!env`, as a real config would). */
export const SECRET = 'test-cluster-secret-0123456789abcdef';

const PASSWORD = 'correct horse battery';

/** One instance of the test cluster. */
export interface Member {
  name: string;
  dir: string;
  configPath: string;
  proc: PipitProcess;
  /** http://127.0.0.1:<port> */
  url: string;
  token: string;
}

/** A running test cluster. */
export interface TestCluster {
  redis: RedisServer;
  members: Record<string, Member>;
  /** Kills the member `name` with SIGKILL (no shutdown at all) and waits for it to be gone. */
  kill(name: string): Promise<void>;
  stop(): Promise<void>;
}

/**
 * The config of one member: its device_id, the shared Redis, fast heartbeats, short timeouts.
 *
 * @example
 * writeFileSync(path, configYaml('alpha', 'redis://127.0.0.1:6379', ''));
 */
export function configYaml(
  name: string,
  redisUrl: string,
  extra: string,
  port = 0,
  http: string[] = [],
): string {
  return [
    `device_id: ${name}`,
    'workdir: ./data',
    'scripts_dir: ./scripts',
    'backend.http:',
    `  port: ${port}`,
    '  bind_address: 127.0.0.1',
    ...http.map((line) => `  ${line}`),
    'redis:',
    `  url: ${redisUrl}`,
    '  secret: !env PIPIT_CLUSTER_SECRET',
    '  request_timeout_seconds: 3',
    '  heartbeat_seconds: 0.3',
    extra,
  ].join('\n');
}

async function post(url: string, body: unknown, token?: string): Promise<Response> {
  return fetch(url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    },
    body: JSON.stringify(body),
  });
}

/**
 * Starts one Pipit process with the cluster's secret (and `env`), registers `ada` (or logs her in
 * again) and gets her a token.
 *
 * @example
 * const member = await launch('alpha', dir, join(dir, 'config.yaml'));
 */
export async function launch(
  name: string,
  dir: string,
  configPath: string,
  port?: number,
  env: NodeJS.ProcessEnv = {},
): Promise<Member> {
  const proc = port
    ? await startQuiet(configPath, port)
    : await startPipitProcess(configPath, { PIPIT_CLUSTER_SECRET: SECRET, ...env });
  const first = await post(`${proc.url}/register`, { username: 'ada', password: PASSWORD });
  if (first.status !== 201 && first.status !== 403)
    throw new Error(`${name}: register answered ${first.status}`);
  const auth = await post(`${proc.url}/auth`, { username: 'ada', password: PASSWORD });
  const { token } = (await auth.json()) as { token: string };
  return { name, dir, configPath, proc, url: proc.url, token };
}

// A `pipit start` that logs warnings only (benchmarks: no line per request), on a known port:
// ready once its /healthz answers.
async function startQuiet(configPath: string, port: number): Promise<PipitProcess> {
  const child = spawn(process.execPath, [CLI, 'start', '--config', configPath], {
    env: { ...process.env, PIPIT_LOG_LEVEL: 'warn', PIPIT_CLUSTER_SECRET: SECRET },
  });
  const logs: string[] = [];
  child.stdout.on('data', (c: Buffer) => logs.push(c.toString()));
  child.stderr.on('data', (c: Buffer) => logs.push(c.toString()));
  const url = `http://127.0.0.1:${port}`;
  for (const deadline = Date.now() + 30_000; ;) {
    if (child.exitCode !== null) throw new Error(`pipit exited:\n${logs.join('')}`);
    if (
      await fetch(`${url}/healthz`).then(
        (r) => r.ok,
        () => false,
      )
    )
      break;
    if (Date.now() > deadline) throw new Error(`pipit did not answer on ${url}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return {
    child,
    url,
    logs,
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return child.exitCode;
      child.kill('SIGTERM');
      const [code] = (await once(child, 'exit')) as [number | null];
      return code;
    },
  };
}

/** A member started on its own, with what removes it. */
export interface LoneMember extends Member {
  /** Stops the process (SIGTERM) and removes its directory. */
  cleanup(): Promise<void>;
}

/**
 * Starts one Pipit process on `redisUrl` (the config of {@link configYaml}, `extra` in its `redis`
 * section, `edit` applied to the whole text), in a directory of its own.
 *
 * @example
 * const alpha = await launchMember('alpha', proxyUrl, '  command_timeout_seconds: 0.5');
 * await alpha.cleanup();
 */
export async function launchMember(
  name: string,
  redisUrl: string,
  extra = '',
  edit: (yaml: string) => string = (yaml) => yaml,
): Promise<LoneMember> {
  const temp = tempDir(`pipit-cluster-${name}-`);
  try {
    const configPath = join(temp.dir, 'config.yaml');
    writeFileSync(configPath, edit(configYaml(name, redisUrl, extra)));
    mkdirSync(join(temp.dir, 'scripts'));
    const member = await launch(name, temp.dir, configPath);
    return {
      ...member,
      async cleanup() {
        await member.proc.stop();
        temp.cleanup();
      },
    };
  } catch (err) {
    temp.cleanup();
    throw err;
  }
}

/** The lines of `member`'s log that match `pattern`. */
export function logLines(member: Member, pattern: RegExp): string[] {
  return member.proc.logs.flatMap((chunk) => chunk.split('\n')).filter((l) => pattern.test(l));
}

/**
 * Starts redis-server and one Pipit process per name (each with its own workdir and user `ada`),
 * and resolves once every instance lists all the others.
 *
 * @example
 * const cluster = await startCluster(['alpha', 'beta', 'gamma'], { extra: () => 'utils: {}' });
 */
export async function startCluster(
  names: string[],
  opts: {
    extra?: (name: string) => string;
    scripts?: (name: string) => Record<string, string>;
    /** Log warnings only, on fixed free ports (benchmarks). */
    quiet?: boolean;
    /** Lines added to each member's `backend.http` section, e.g. `max_connections_per_address: 1000`. */
    http?: string[];
  } = {},
): Promise<TestCluster> {
  const redis = await startRedis();
  const members: Record<string, Member> = {};
  const dirs: { cleanup(): void }[] = [];
  const prepare = (name: string, port: number) => {
    const temp = tempDir(`pipit-cluster-${name}-`);
    dirs.push(temp);
    const configPath = join(temp.dir, 'config.yaml');
    writeFileSync(
      configPath,
      configYaml(name, redis.url, opts.extra?.(name) ?? '', port, opts.http),
    );
    mkdirSync(join(temp.dir, 'scripts'));
    for (const [file, text] of Object.entries(opts.scripts?.(name) ?? {}))
      writeFileSync(join(temp.dir, 'scripts', file), text);
    return { dir: temp.dir, configPath };
  };
  try {
    const started = await Promise.all(
      names.map(async (name) => {
        const port = opts.quiet ? await freePort() : 0;
        const { dir, configPath } = prepare(name, port);
        return launch(name, dir, configPath, port || undefined);
      }),
    );
    for (const member of started) members[member.name] = member;
    await Promise.all(started.map((m) => waitForInstances(m, names)));
  } catch (err) {
    await Promise.all(Object.values(members).map((m) => m.proc.stop()));
    await redis.stop();
    for (const d of dirs) d.cleanup();
    throw err;
  }
  return {
    redis,
    members,
    async kill(name) {
      const { child } = members[name]!.proc;
      delete members[name];
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = once(child, 'exit');
      child.kill('SIGKILL');
      await exited;
    },
    async stop() {
      await Promise.all(Object.values(members).map((m) => m.proc.stop()));
      await redis.stop();
      for (const d of dirs) d.cleanup();
    },
  };
}

/**
 * Runs a request on `member` over HTTP: the status and the response message.
 *
 * @example
 * const { status, body } = await execute(alpha, { action: 'utils.echo', target: 'beta' });
 */
export async function execute(
  member: Member,
  request: { action: string; args?: Record<string, unknown>; target?: string; id?: string },
): Promise<{ status: number; body: Json }> {
  const res = await post(`${member.url}/execute`, { type: 'request', ...request }, member.token);
  return { status: res.status, body: (await res.json()) as Json };
}

/** `inspect.instances` on `member`. */
export async function instances(member: Member): Promise<Json> {
  const { body } = await execute(member, { action: 'inspect.instances' });
  return body.response.output as Json;
}

/**
 * The member's `/metrics`, parsed.
 *
 * @example
 * sample(await metricsOf(alpha), 'pipit_cluster_connected'); // 1
 */
export async function metricsOf(member: Member): Promise<Exposition> {
  const res = await fetch(`${member.url}/metrics`, {
    headers: { authorization: `Bearer ${member.token}` },
  });
  if (res.status !== 200) throw new Error(`GET /metrics on ${member.name}: ${res.status}`);
  return parseExposition(await res.text());
}

/** Resolves once `member` lists exactly `names` (polled: heartbeats are periodic by design). */
export async function waitForInstances(
  member: Member,
  names: string[],
  deadlineMs = 15_000,
): Promise<void> {
  const want = [...names].sort().join(',');
  const deadline = Date.now() + deadlineMs;
  for (;;) {
    const report = await instances(member);
    const seen = (report.instances as { device_id: string }[])
      .map((i) => i.device_id)
      .sort()
      .join(',');
    if (seen === want && report.cluster === 'connected') return;
    if (Date.now() > deadline)
      throw new Error(`${member.name} sees [${seen}] (${report.cluster}), not [${want}]`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Resolves once `GET /readyz` of `member` answers `status`. */
export async function waitForReadyz(member: Member, status: number, deadlineMs = 15_000) {
  const deadline = Date.now() + deadlineMs;
  for (;;) {
    const res = await fetch(`${member.url}/readyz`);
    if (res.status === status) return;
    if (Date.now() > deadline)
      throw new Error(`${member.name}: /readyz still answers ${res.status}, not ${status}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** A `/ws/events` client on `member`. */
export function events(member: Member): Promise<Client> {
  return connect(`${member.url.replace(/^http/, 'ws')}/ws/events`, bearer(member.token));
}

/** A `/ws/requests` client on `member`. */
export function requests(member: Member): Promise<Client> {
  return connect(`${member.url.replace(/^http/, 'ws')}/ws/requests`, bearer(member.token));
}
