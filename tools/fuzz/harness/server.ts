// The server under test: the fuzz configuration, a Pipit child restarted after a crash, and the
// kinds of violations that are about the whole server.
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { WebSocket } from 'ws';
import { clip, parseJson } from '../checks.ts';
import { PipitChild } from '../pipit-child.ts';
import type { ChildMemory } from '../pipit-child.ts';
import { httpRequest } from './http.ts';

const delay = (ms: number) =>
  new Promise<'timeout'>((resolve) => setTimeout(() => resolve('timeout'), ms).unref());

/** The hooks and the procedure the generators aim at. */
export const FUZZ_YAML = `event.hook.Fuzz:
  if: {type: WebhookEvent, hook: fuzz}
  then:
    - action: utils.echo
      args: {x: 1}
event.hook.FuzzData:
  if: {type: WebhookEvent, hook: fuzzdata}
  then:
    - return: \${data}
event.hook.FuzzAnswer:
  if: {type: WebhookEvent, hook: fuzzanswer}
  then:
    - action: hook.send_response
      args: {body: accepted, status: 202, headers: {x-fuzz: 'yes'}}
procedure.fuzzproc(v):
  - return: \${v}
`;

/**
 * The fuzz configuration with the file and shell plugins confined to `sandbox`, a temporary
 * directory apart from the child's (a root may not hold the configuration): file.roots is
 * `<sandbox>/files` (created), reads are small, and shell.allow runs only `true`, `echo` and
 * `printf` (env refused, short timeouts). The child's HOME and working directory are
 * `<sandbox>/home` (see PipitChild's `home`).
 */
export function fuzzYaml(sandbox: string): string {
  const files = join(sandbox, 'files');
  mkdirSync(files, { recursive: true });
  return `${FUZZ_YAML}file:
  roots: [${JSON.stringify(files)}]
  max_read_bytes: 65536
  max_list_entries: 200
shell:
  allow: ['true', 'echo *', 'printf *']
  timeout_seconds: 5
  max_output_bytes: 65536
`;
}

// ---------------------------------------------------------------------------------------------
// The server under test

/**
 * The Pipit child under test with its tokens, a passive `/ws/events` subscriber (so that events
 * fan out to a real socket), and crash recovery: a driver whose request failed asks
 * {@link FuzzServer.diagnose}, which tells a crash or a hang from a live server and restarts it.
 */
export class FuzzServer {
  /** Where the file and shell plugins may act (see {@link fuzzYaml}); removed by close(). */
  readonly sandbox = mkdtempSync(join(tmpdir(), 'pipit-fuzz-sandbox-'));
  readonly pipit = new PipitChild({
    gc: true,
    extraYaml: fuzzYaml(this.sandbox),
    home: join(this.sandbox, 'home'),
  });
  token = '';
  revoked = '';
  restarts = 0;
  /** One line per crash or hang: what was seen. */
  readonly failures: string[] = [];
  watcherFrames = 0;
  private watcher: WebSocket | undefined;
  private restarting: Promise<void> | undefined;
  /** The last crash or hang seen. */
  lastFailure = '';

  /** Starts the child, registers the user, issues a token and a revoked one. */
  static async start(): Promise<FuzzServer> {
    const server = new FuzzServer();
    try {
      await server.pipit.start();
      server.token = (await server.pipit.registerUser()).token;
      const revoked = await server.pipit.issueToken('revoked');
      await server.pipit.revokeToken(server.token, revoked.id);
      server.revoked = revoked.token;
      await server.openWatcher();
      return server;
    } catch (err) {
      await server.close();
      throw err;
    }
  }

  get port(): number {
    return this.pipit.port;
  }

  /** A token with its signature changed. */
  get tampered(): string {
    const last = this.token.at(-2) === 'A' ? 'B' : 'A';
    return `${this.token.slice(0, -2)}${last}${this.token.at(-1)}`;
  }

  /** Resolves once no restart is under way. */
  async ready(): Promise<void> {
    while (this.restarting) await this.restarting;
  }

  /**
   * After an input got no answer: undefined when the server is up and answering, else a
   * "crash: ..." or "hang: ..." violation (the server has been restarted by then).
   */
  async diagnose(since = this.restarts): Promise<string | undefined> {
    if (this.restarting) {
      await this.restarting;
      return this.lastFailure;
    }
    // Sent before a restart that is over by now: it failed with the server that crashed.
    if (this.restarts !== since) return this.lastFailure;
    const exited = this.pipit.waitExit().then(() => 'exit' as const);
    const probe = this.knownGood().then((v) => (v === undefined ? ('ok' as const) : v));
    const first = await Promise.race([exited, probe, delay(10_000)]);
    if (first === 'ok') return undefined;
    await Promise.race([exited, delay(2_000)]);
    return this.recover(this.pipit.alive() ? 'hang' : 'crash');
  }

  private async recover(kind: 'crash' | 'hang'): Promise<string> {
    if (!this.restarting) {
      this.lastFailure =
        kind === 'crash'
          ? `crash: the server exited (${this.pipit.crashes.at(-1) ?? '?'}): ${crashReason(this.pipit.logs())}`
          : 'hang: the server stopped answering a known-good request for 10 s';
      this.failures.push(this.lastFailure);
      this.restarting = (async () => {
        if (this.pipit.alive()) {
          this.pipit.child!.kill('SIGKILL');
          await this.pipit.waitExit();
        }
        this.watcher?.terminate();
        await this.pipit.start();
        this.restarts++;
        await this.openWatcher();
      })().finally(() => (this.restarting = undefined));
    }
    await this.restarting;
    return this.lastFailure;
  }

  /** `POST /execute` utils.echo on a fresh connection: undefined when answered right. */
  async knownGood(): Promise<string | undefined> {
    const n = Math.floor(Math.random() * 1e9);
    const res = await httpRequest(
      false,
      this.port,
      'POST',
      '/execute',
      { 'content-type': 'application/json', authorization: `Bearer ${this.token}` },
      JSON.stringify({ type: 'request', action: 'utils.echo', args: { n } }),
      10_000,
    );
    if ('error' in res) return `down: a known-good request failed: ${res.error.message}`;
    const body = parseJson(res.body.toString());
    const ok =
      res.status === 200 &&
      body.ok &&
      (body.value as { response?: { output?: { n?: number } } }).response?.output?.n === n;
    return ok
      ? undefined
      : `down: a known-good request answered ${res.status} ${clip(res.body.toString())}`;
  }

  /** Forces a GC in the child and returns its memory. */
  memory(): Promise<ChildMemory> {
    return this.pipit.memory();
  }

  private async openWatcher(): Promise<void> {
    const ws = new WebSocket(`${this.pipit.wsUrl}/ws/events`, {
      headers: { authorization: `Bearer ${this.token}` },
    });
    ws.on('message', () => this.watcherFrames++);
    ws.on('error', () => undefined);
    await new Promise<void>((resolve, reject) => {
      ws.once('open', () => resolve());
      ws.once('error', reject);
    });
    this.watcher = ws;
  }

  async close(): Promise<void> {
    await this.ready();
    this.watcher?.terminate();
    try {
      await this.pipit.close();
    } finally {
      // chmod 000 may have been fuzzed onto a directory: rm -rf still removes what it can.
      rmSync(this.sandbox, { recursive: true, force: true, maxRetries: 2 });
    }
  }
}

/** The most telling error line in a crashed child's logs. */
export function crashReason(logs: string): string {
  const lines = logs.split('\n');
  const hit =
    lines.findLast((l) => /\b(\w*Error|FATAL|Abort)\b/.test(l) && !/^\s+at /.test(l)) ??
    lines.findLast((l) => l.trim() !== '' && !l.startsWith('---'));
  return clip(hit?.trim() ?? 'no log line', 400);
}
