#!/usr/bin/env node
import { Command, Option } from 'commander';
import { isPipitError, toPipitError } from '../core/errors.ts';
import { createLogger } from '../core/logger.ts';
import { installProcessPolicy } from '../process-policy.ts';
import { resolveConfig, startPipit } from '../runtime.ts';
import { createService } from '../service.ts';
import type { Service } from '../service.ts';
import { parseCliArgs } from './args.ts';
import { readPassword } from './prompt.ts';
import { spotifyLogin } from './spotify.ts';

const program = new Command('pipit')
  .description(
    'Pipit: run plugin actions and procedures over HTTP, WebSockets, hooks, cron and this CLI',
  )
  .option(
    '-c, --config <path>',
    'configuration file (default: $PIPIT_CONFIG, ./config.yaml, ~/.config/pipit/config.yaml, /etc/pipit/config.yaml)',
  )
  .showHelpAfterError();

const configPath = () => program.opts<{ config?: string }>().config;

// Commands other than `start` only need the service, quietly.
async function withService<T>(fn: (service: Service) => Promise<T>): Promise<T> {
  const { config } = resolveConfig({ explicit: configPath() });
  const service = await createService(config, {
    log: createLogger({ level: process.env.PIPIT_LOG_LEVEL ?? 'warn' }),
  });
  try {
    return await fn(service);
  } finally {
    await service.close();
  }
}

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
    if (created)
      log.info(
        { path: created },
        `no configuration found: wrote a commented default to ${created}`,
      );
    const running = await startPipit(config, { log });
    installProcessPolicy(log, () => running.stop());
    const stop = (signal: string) => {
      log.info({ signal }, 'shutting down: finishing in-flight requests');
      void running.stop().then(() => process.exit(0));
    };
    process.once('SIGTERM', () => stop('SIGTERM'));
    process.once('SIGINT', () => stop('SIGINT'));
  });

program
  .command('run <action> [args...]')
  .description(
    'run an action or procedure in-process: key=value (string) or key:=json (typed) arguments',
  )
  .option('--args <json>', 'arguments as one JSON object')
  .action(async (action: string, words: string[], opts: { args?: string }) => {
    const args = parseCliArgs(words, opts.args);
    await withService(async (service) => {
      const { message } = await service.execute(
        { type: 'request', action, args },
        { target: 'cli' },
      );
      print(message);
      if (message.response.errors.length) process.exitCode = 1;
    });
  });

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
    await withService((service) =>
      spotifyLogin(service, {
        timeoutSeconds: Number(opts.timeout),
        out: (line) => process.stdout.write(`${line}\n`),
      }),
    );
  });

const user = program.command('user').description('manage users');
user
  .command('add <name>')
  .option('--password-stdin', 'read the password from standard input')
  .action(async (name: string, opts: { passwordStdin?: boolean }) => {
    const password = await readPassword(`Password for ${name}: `, {
      fromStdin: Boolean(opts.passwordStdin),
      command: `user add ${name}`,
    });
    await withService(async (s) =>
      print({ username: (await s.auth.addUser(name, password)).username }),
    );
  });
user.command('list').action(() => withService(async (s) => print(s.store.users.list())));
user
  .command('passwd <name>')
  .option('--password-stdin', 'read the password from standard input')
  .action(async (name: string, opts: { passwordStdin?: boolean }) => {
    const password = await readPassword(`New password for ${name}: `, {
      fromStdin: Boolean(opts.passwordStdin),
      command: `user passwd ${name}`,
    });
    await withService(async (s) => {
      await s.auth.setPassword(findUser(s, name).id, password);
      print({ username: name, password_changed: true });
    });
  });
user
  .command('remove <name>')
  .action((name: string) =>
    withService(async (s) =>
      print({ username: name, removed: s.auth.removeUser(findUser(s, name).id) }),
    ),
  );

function findUser(s: Service, name: string) {
  const row = s.store.users.byName(name);
  if (!row)
    throw toPipitError(new Error(`no user named "${name}" (see "pipit user list")`), 'NOT_FOUND');
  return row;
}

const token = program.command('token').description('manage API tokens');
token
  .command('create <user>')
  .option('--name <name>', 'a name to recognise the token by')
  .addOption(
    new Option('--expiry-days <days>', 'days until it expires (default: never)').argParser(Number),
  )
  .action((name: string, opts: { name?: string; expiryDays?: number }) =>
    withService(async (s) =>
      print(
        await s.auth.issueToken(findUser(s, name), {
          name: opts.name,
          expiryDays: opts.expiryDays,
        }),
      ),
    ),
  );
token
  .command('list <user>')
  .action((name: string) =>
    withService(async (s) => print(s.auth.listTokens(findUser(s, name).id))),
  );
token.command('revoke <user> <id>').action((name: string, id: string) =>
  withService(async (s) => {
    s.auth.revokeToken(findUser(s, name).id, id);
    print({ id, revoked: true });
  }),
);

program.parseAsync().catch((err: unknown) => {
  const error = toPipitError(err, 'INTERNAL');
  process.stderr.write(
    `pipit: ${isPipitError(err) ? error.message : String((err as Error)?.stack ?? err)}\n`,
  );
  process.exitCode = error.code === 'CONFIG_INVALID' ? 78 : 1;
});
