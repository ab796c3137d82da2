// A `pipit start` child process on a free loopback port, for the fuzz suite and the soak script:
// quiet logs (no access line per request), optional `--expose-gc` with an IPC channel that forces
// a GC and reports memory (gc-preload.ts), and a registered user with tokens.
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { freePort } from '../../test/helpers/net.ts';

/** The CLI entry point, run from source by Node 24's type stripping. */
export const CLI = join(import.meta.dirname, '../../src/cli/main.ts');
const GC_PRELOAD = pathToFileURL(join(import.meta.dirname, 'gc-preload.ts')).href;

export const USERNAME = 'fuzz';
export const PASSWORD = 'fuzz password 123';
export const DEVICE_ID = 'fuzz-host';

/** Memory figures of the child, measured after a forced full GC. */
export interface ChildMemory {
  heapUsed: number;
  rss: number;
}

/** Keeps the last `max` lines written to a stream. */
export class Tail {
  readonly lines: string[] = [];
  private partial = '';
  private readonly max: number;
  constructor(max = 200) {
    this.max = max;
  }
  push(chunk: Buffer | string): void {
    const parts = (this.partial + chunk.toString()).split('\n');
    this.partial = parts.pop()!;
    for (const line of parts) {
      this.lines.push(line.length > 2000 ? `${line.slice(0, 2000)}…` : line);
      if (this.lines.length > this.max) this.lines.shift();
    }
  }
  text(): string {
    return [...this.lines, this.partial].filter(Boolean).join('\n');
  }
}

/** Options of {@link PipitChild}. */
export interface PipitChildOptions {
  /** Extra YAML appended to the generated configuration. */
  extraYaml?: string;
  /**
   * A directory (created) that is the child's HOME and working directory: what a command or a `~/`
   * path reaches stays there.
   */
  home?: string;
  /** Start the child with `--expose-gc` and an IPC channel for {@link PipitChild.memory}. */
  gc?: boolean;
  /** `logging.level` of the child (default "warn"). */
  logLevel?: string;
  /** Keep this many lines of stdout and stderr (default 200). */
  tailLines?: number;
}

/**
 * A `pipit start` child on a fixed free port and its own temporary workdir. It can be restarted on
 * the same workdir and port after a crash (the user and the tokens survive: they are in the database).
 *
 * @example
 * const pipit = new PipitChild({ gc: true });
 * await pipit.start();
 * const { token } = await pipit.registerUser();
 * await pipit.close();
 */
export class PipitChild {
  readonly dir = mkdtempSync(join(tmpdir(), 'pipit-fuzz-'));
  readonly configPath = join(this.dir, 'config.yaml');
  port = 0;
  child: ChildProcess | undefined;
  /** Every exit that was not asked for by {@link stop}: "signal SIGABRT", "code 1"... */
  readonly crashes: string[] = [];
  stdout: Tail;
  stderr: Tail;
  private stopping = false;
  private exited: Promise<void> = Promise.resolve();
  private memoryWaiters = new Map<number, (m: ChildMemory) => void>();
  private memorySeq = 0;

  private readonly opts: PipitChildOptions;

  constructor(opts: PipitChildOptions = {}) {
    this.opts = opts;
    this.stdout = new Tail(opts.tailLines);
    this.stderr = new Tail(opts.tailLines);
  }

  get url(): string {
    return `http://127.0.0.1:${this.port}`;
  }
  get wsUrl(): string {
    return `ws://127.0.0.1:${this.port}`;
  }
  get pid(): number | undefined {
    return this.child?.pid;
  }
  /** True while the child process runs. */
  alive(): boolean {
    return !!this.child && this.child.exitCode === null && this.child.signalCode === null;
  }

  /**
   * Writes the configuration on a free port (first time) and starts the process; resolves once it
   * answers. Later calls start it again on the same workdir and port.
   */
  async start(): Promise<void> {
    if (this.port) return this.spawn();
    // The free port may be taken by someone else before the child binds it: try another.
    for (let attempt = 1; ; attempt++) {
      this.port = await freePort();
      writeFileSync(
        this.configPath,
        `device_id: ${DEVICE_ID}\nworkdir: ./data\nlogging: {level: ${this.opts.logLevel ?? 'warn'}}\n` +
          `backend.http:\n  port: ${this.port}\n  bind_address: 127.0.0.1\n  hook_timeout_seconds: 5\n` +
          (this.opts.extraYaml ?? ''),
      );
      try {
        return await this.spawn();
      } catch (err) {
        if (attempt >= 3 || this.alive()) throw err;
        this.crashes.length = 0;
      }
    }
  }

  private async spawn(): Promise<void> {
    this.stdout = new Tail(this.opts.tailLines);
    this.stderr = new Tail(this.opts.tailLines);
    const execArgv = this.opts.gc ? ['--expose-gc', '--import', GC_PRELOAD] : [];
    const home = this.opts.home;
    if (home) mkdirSync(home, { recursive: true });
    const child = spawn(
      process.execPath,
      [...execArgv, CLI, 'start', '--config', this.configPath],
      {
        env: {
          ...process.env,
          PIPIT_LOG_LEVEL: this.opts.logLevel ?? 'warn',
          ...(home ? { HOME: home } : {}),
        },
        ...(home ? { cwd: home } : {}),
        stdio: ['ignore', 'pipe', 'pipe', ...(this.opts.gc ? (['ipc'] as const) : [])],
      },
    );
    this.child = child;
    this.stopping = false;
    child.stdout!.on('data', (c: Buffer) => this.stdout.push(c));
    child.stderr!.on('data', (c: Buffer) => this.stderr.push(c));
    child.on('message', (m: { type?: string; seq?: number } & ChildMemory) => {
      if (m.type !== 'memory' || m.seq === undefined) return;
      this.memoryWaiters.get(m.seq)?.(m);
      this.memoryWaiters.delete(m.seq);
    });
    this.exited = new Promise((resolve) =>
      child.once('exit', (code, signal) => {
        if (!this.stopping) this.crashes.push(signal ? `signal ${signal}` : `code ${code}`);
        resolve();
      }),
    );
    await this.waitUp(30_000);
  }

  /** Polls `GET /auth/status` until it answers 200 (bounded by `ms`). */
  async waitUp(ms: number): Promise<void> {
    const deadline = Date.now() + ms;
    let last: unknown;
    while (Date.now() < deadline) {
      if (!this.alive()) throw new Error(`pipit exited before answering:\n${this.logs()}`);
      try {
        const res = await fetch(`${this.url}/auth/status`, { signal: AbortSignal.timeout(2000) });
        await res.arrayBuffer();
        if (res.status === 200) return;
        last = `status ${res.status}`;
      } catch (err) {
        last = err;
      }
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    throw new Error(`pipit did not answer within ${ms} ms (${String(last)}):\n${this.logs()}`);
  }

  /** Resolves once the current process has exited (at once when none runs). */
  async waitExit(): Promise<void> {
    await this.exited;
  }

  /** Registers the fuzz user (first start only) and issues a token through `POST /auth`. */
  async registerUser(): Promise<{ token: string; id: string }> {
    const post = (path: string, body: unknown) =>
      fetch(`${this.url}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
    const reg = await post('/register', { username: USERNAME, password: PASSWORD });
    if (reg.status !== 201 && reg.status !== 403)
      throw new Error(`register failed: ${reg.status} ${await reg.text()}`);
    return this.issueToken();
  }

  /** A new API token for the fuzz user. */
  async issueToken(name = 'fuzz'): Promise<{ token: string; id: string }> {
    const res = await fetch(`${this.url}/auth`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: USERNAME, password: PASSWORD, name }),
    });
    if (res.status !== 200) throw new Error(`auth failed: ${res.status} ${await res.text()}`);
    return (await res.json()) as { token: string; id: string };
  }

  /** Revokes a token of the fuzz user. */
  async revokeToken(token: string, id: string): Promise<void> {
    const res = await fetch(`${this.url}/tokens/${id}`, {
      method: 'DELETE',
      headers: { authorization: `Bearer ${token}` },
    });
    if (res.status !== 200) throw new Error(`revoke failed: ${res.status} ${await res.text()}`);
  }

  /** Forces full GCs in the child (started with `gc: true`) and returns its memory. */
  async memory(): Promise<ChildMemory> {
    const child = this.child;
    if (!this.opts.gc || !child?.send) throw new Error('memory() needs a child started with gc');
    const seq = ++this.memorySeq;
    let timer: NodeJS.Timeout | undefined;
    const answer = new Promise<ChildMemory>((resolve, reject) => {
      this.memoryWaiters.set(seq, resolve);
      timer = setTimeout(
        () => reject(new Error('no memory answer from the child in 10 s')),
        10_000,
      );
    });
    child.send({ type: 'gc', seq });
    try {
      return await answer;
    } finally {
      clearTimeout(timer);
      this.memoryWaiters.delete(seq);
    }
  }

  /** The tails of stdout and stderr, for failure messages. */
  logs(): string {
    return `--- stdout (tail) ---\n${this.stdout.text()}\n--- stderr (tail) ---\n${this.stderr.text()}`;
  }

  /** Stops the process with SIGTERM (SIGKILL after 10 s). */
  async stop(): Promise<void> {
    const child = this.child;
    if (!child || !this.alive()) return;
    this.stopping = true;
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
    await this.exited;
    clearTimeout(timer);
  }

  /** Stops the process and removes the workdir. */
  async close(): Promise<void> {
    await this.stop();
    rmSync(this.dir, { recursive: true, force: true });
  }
}

/** The resident set size of a process in bytes (VmRSS in /proc/<pid>/status), if readable. */
export function readRss(pid: number): number | undefined {
  const status = readFileSyncSafe(`/proc/${pid}/status`);
  const match = /^VmRSS:\s+(\d+)\s+kB/m.exec(status ?? '');
  return match ? Number(match[1]) * 1024 : undefined;
}

function readFileSyncSafe(path: string): string | undefined {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return undefined;
  }
}
