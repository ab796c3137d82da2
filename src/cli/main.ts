#!/usr/bin/env node
import { Command } from 'commander';
import { isPipitError, PipitError, toPipitError } from '../core/errors.ts';
import { createLogger } from '../core/logger.ts';
import {
  installProcessPolicy,
  shutdownDeadlineMs,
  stopAndExit,
  tuneHeap,
} from '../app/process-policy.ts';
import { loadEnabledPlugins } from '../plugins/catalog.ts';
import { startHeapTrim } from '../app/heap-trim.ts';
import { reloadService } from '../app/reload.ts';
import { checkConfiguration } from '../app/user-layer.ts';
import { resolveConfig, startPipit } from '../app/runtime.ts';
import { createService } from '../app/service.ts';
import type { Service } from '../app/service.ts';
import { runCommand } from '../control/commands.ts';
import type { serviceStatus } from '../control/commands.ts';
import type { CommandName } from '../control/commands.ts';
import { openControl } from '../control/client.ts';
import type { ControlClient } from '../control/client.ts';
import type { ResponseMessage } from '../core/messages.ts';
import { LOCAL_CALLER } from '../core/runs.ts';
import { pipitVersion } from '../lib/version.ts';
import { parseCliArgs } from './args.ts';
import { addAccountCommands } from './accounts.ts';
import { addPluginCommands, pluginRows } from './plugin.ts';

const program = new Command('pipit')
  .description(
    'Pipit: run plugin actions and procedures over HTTP, WebSockets, hooks, cron and this CLI',
  )
  .option(
    '-c, --config <path>',
    'configuration file (default: $PIPIT_CONFIG, ./config.yaml, ~/.config/pipit/config.yaml, /etc/pipit/config.yaml)',
  )
  .version(pipitVersion(), '-V, --version', "print Pipit's version")
  .showHelpAfterError();

const configPath = () => program.opts<{ config?: string }>().config;

const LOCAL_HELP =
  'work on the database in this process even when a service is running (by default the command goes through the running service)';

// State-changing commands go through the running service's control socket when there is one, so
// that it sees the change at once (its events, caches and variables); else, or with --local, they
// run on a service of their own in this process.
async function viaService<T>(
  opts: { local?: boolean },
  how: { remote: (control: ControlClient) => Promise<T>; local: (service: Service) => Promise<T> },
): Promise<T> {
  if (!opts.local) {
    const control = await openControl(clientWorkdir());
    if (control) {
      try {
        return await how.remote(control);
      } finally {
        control.close();
      }
    }
  }
  return withService(how.local);
}

// Where the running service's control socket is: only the workdir is needed, so variables the
// service alone needs (the cluster's secret, API keys) may be unset in this shell. With a value
// that is not valid in their place, the configuration is read as the service would read it.
function clientWorkdir(): string {
  try {
    return resolveConfig({ explicit: configPath(), unsetEnv: 'unset-in-this-shell-0000' }).config
      .workdir;
  } catch {
    return resolveConfig({ explicit: configPath() }).config.workdir;
  }
}

// One of the CLI's user and token commands, through the running service or locally.
const command = (name: CommandName, args: Record<string, unknown>, opts: { local?: boolean }) =>
  viaService(opts, {
    remote: (control) => control.call({ kind: 'command', command: name, args }),
    local: (service) => runCommand(service, name, args),
  });

// Commands other than `start` only need the service, quietly.
async function withService<T>(fn: (service: Service) => Promise<T>): Promise<T> {
  const { config } = resolveConfig({ explicit: configPath() });
  const service = await createService(config, {
    // On standard error: standard output carries the command's answer (JSON a script parses).
    log: createLogger({
      level: process.env.PIPIT_LOG_LEVEL ?? 'warn',
      destination: process.stderr,
    }),
    metrics: false,
  });
  try {
    return await fn(service);
  } finally {
    await service.close();
  }
}

// runs.replay answers with the new run, failed or not: a replay that fails again is a failure of
// the command too (a script that replays a run checks the exit status).
const replayFailed = (action: string, message: ResponseMessage): boolean =>
  action === 'runs.replay' &&
  (message.response.output as { outcome?: unknown } | null)?.outcome === 'failed';

const print = (value: unknown): void => {
  process.stdout.write(`${JSON.stringify(value, null, 2)}\n`);
};

program
  .command('start')
  .description('start the service (writes a commented default config first when none exists)')
  .option('--config <path>', 'configuration file')
  .action(async (opts: { config?: string }) => {
    const { config, created } = resolveConfig({
      explicit: opts.config ?? configPath(),
      writeDefault: true,
    });
    const log = createLogger({ level: config.logLevel, format: config.logFormat });
    for (const warning of config.warnings) log.warn(warning);
    if (created)
      log.info(
        { path: created },
        `no configuration found: wrote a commented default to ${created}`,
      );
    // SIGHUP's default is to end the process, and the service announces itself (a supervisor or a
    // test may signal it at once) before the handlers below exist: a reload asked for during the
    // start is remembered and done once it has started.
    let reloadAsked = false;
    const early = () => (reloadAsked = true);
    process.on('SIGHUP', early);
    // Likewise a SIGTERM or SIGINT between the first answer and the end of the start: one handler
    // from here on, never removed and added again (with no listener, Node gives the signal back
    // its default action, and a supervisor that stops a service as soon as it answers killed it
    // outright, skipping the graceful close). A second one still ends the process at once.
    let stopAsked: string | undefined;
    let onStop: ((signal: string) => void) | undefined = undefined;
    const onSignal = (signal: string) => () => {
      if (onStop) onStop(signal);
      else stopAsked ??= signal;
    };
    process.once('SIGTERM', onSignal('SIGTERM'));
    process.once('SIGINT', onSignal('SIGINT'));
    const running = await startPipit(config, { log });
    log.debug({ v8: tuneHeap() }, 'V8 settings for a long-running service');
    startHeapTrim(log);
    const deadlineMs = shutdownDeadlineMs(config.http?.shutdown_grace_seconds);
    installProcessPolicy(log, () => running.stop(), { deadlineMs });
    const stop = (signal: string) => {
      log.info({ signal }, 'shutting down: finishing in-flight requests');
      stopAndExit(log, () => running.stop(), { code: 0, deadlineMs });
    };
    onStop = stop;
    // Reload: the outcome (or the refusal, the old configuration kept) is in the log.
    const reload = () => void reloadService(running.service).catch(() => undefined);
    process.on('SIGHUP', reload);
    process.off('SIGHUP', early);
    if (stopAsked) stop(stopAsked);
    else if (reloadAsked) reload();
  });

program
  .command('run <action> [args...]')
  .description(
    'run an action or procedure, through the running service (in this process when none runs, or with --local): key=value (string) or key:=json (typed) arguments',
  )
  .option('--args <json>', 'arguments as one JSON object')
  .option(
    '--target <device_id>',
    'run it on that instance of the cluster (through the running service, which routes it)',
  )
  .option('--local', LOCAL_HELP)
  .action(
    async (
      action: string,
      words: string[],
      opts: { args?: string; target?: string; local?: boolean },
    ) => {
      const request = {
        type: 'request',
        action,
        args: parseCliArgs(words, opts.args),
        ...(opts.target === undefined ? {} : { target: opts.target }),
      };
      const message = (await viaService(opts, {
        remote: (control) => control.call({ kind: 'execute', request }),
        local: async (service) =>
          (await service.execute(request, { transport: 'cli', caller: LOCAL_CALLER })).message,
      })) as ResponseMessage;
      print(message);
      if (message.response.errors.length || replayFailed(action, message)) process.exitCode = 1;
    },
  );

program
  .command('actions [plugin]')
  .description('list the enabled plugins and their actions with their parameters')
  .option('--json', 'print the catalog as JSON')
  .action(async (plugin: string | undefined, opts: { json?: boolean }) => {
    await withService(async (service) => {
      const name = plugin ? service.registry.canonical(plugin) : undefined;
      const catalog = service.registry.catalog().filter((p) => !name || p.name === name);
      if (name && !catalog.length)
        throw toPipitError(new Error(`no enabled plugin "${plugin}"`), 'NOT_FOUND');
      if (opts.json) {
        print(catalog);
        return;
      }
      for (const p of catalog) {
        process.stdout.write(
          `\n${p.name}${p.aliases.length ? ` (also ${p.aliases.join(', ')})` : ''}: ${p.summary}\n`,
        );
        for (const a of p.actions) {
          process.stdout.write(`  ${a.name}  ${a.summary}\n`);
          const props = (a.params.properties ?? {}) as Record<
            string,
            { type?: string; description?: string; default?: unknown }
          >;
          for (const [arg, s] of Object.entries(props)) {
            const def = s.default === undefined ? '' : ` = ${JSON.stringify(s.default)}`;
            process.stdout.write(
              `      ${arg}${def}${s.description ? `  ${s.description}` : ''}\n`,
            );
          }
        }
      }
    });
  });

program
  .command('spotify')
  .description('the music.spotify plugin')
  .command('login')
  .description('authorize Pipit with Spotify: prints the address to open, waits for the callback')
  .option('--timeout <seconds>', 'how long to wait', '300')
  .action(async (opts: { timeout: string }) => {
    // Imported here: only this command needs the Spotify plugin's authorization pages.
    const { spotifyLogin } = await import('./spotify.ts');
    await withService((service) =>
      spotifyLogin(service, {
        timeoutSeconds: Number(opts.timeout),
        out: (line) => process.stdout.write(`${line}\n`),
      }),
    );
  });

program
  .command('config')
  .description('the configuration')
  .command('check')
  .description(
    'check the configuration without starting: prints every warning and what was ignored; exits non-zero only on errors',
  )
  .option('--config <path>', 'configuration file')
  .action(async (opts: { config?: string }) => {
    const { config, plugins } = await loadEnabledPlugins(
      resolveConfig({ explicit: opts.config ?? configPath() }).config,
    );
    const warnings = checkConfiguration(config, plugins);
    for (const warning of warnings) process.stdout.write(`warning: ${warning}\n`);
    process.stdout.write(
      `${config.path ?? '(embedded defaults)'}: OK${warnings.length ? `, ${warnings.length} warning${warnings.length > 1 ? 's' : ''}` : ''}\n`,
    );
  });

// The running service's status through its control socket; undefined when none runs.
async function runningStatus(): Promise<ReturnType<typeof serviceStatus> | undefined> {
  const control = await openControl(clientWorkdir());
  if (!control) return undefined;
  try {
    return (await control.call({ kind: 'command', command: 'service.status', args: {} })) as
      ReturnType<typeof serviceStatus> | undefined;
  } finally {
    control.close();
  }
}

program
  .command('status')
  .description('the running service: its device id and each plugin, started or failed (and why)')
  .action(async () => {
    const status = await runningStatus();
    if (status) return print(status);
    process.stderr.write('pipit: no service runs on this workdir (start one with "pipit start")\n');
    process.exitCode = 3;
  });

addPluginCommands(program, {
  print,
  rows: async () => {
    const { config, plugins } = await loadEnabledPlugins(
      resolveConfig({ explicit: configPath() }).config,
    );
    return pluginRows(config, plugins, (await runningStatus())?.plugins);
  },
});

program
  .command('reload')
  .description(
    "reload the running service's configuration and scripts (as SIGHUP does): prints what changed",
  )
  .action(async () => {
    const { config } = resolveConfig({ explicit: configPath() });
    const control = await openControl(config.workdir);
    if (!control)
      throw new PipitError(
        'UNAVAILABLE',
        `no Pipit is running with the workdir ${config.workdir}: start it with "pipit start"`,
      );
    try {
      print(await control.call({ kind: 'command', command: 'service.reload', args: {} }));
    } finally {
      control.close();
    }
  });

addAccountCommands(program, { command, print, localHelp: LOCAL_HELP });

program.parseAsync().catch((err: unknown) => {
  const error = toPipitError(err, 'INTERNAL');
  process.stderr.write(
    `pipit: ${isPipitError(err) ? error.message : String((err as Error)?.stack ?? err)}\n`,
  );
  process.exitCode = error.code === 'CONFIG_INVALID' ? 78 : 1;
});
