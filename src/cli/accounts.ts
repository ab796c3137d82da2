import { Option } from 'commander';
import type { Command } from 'commander';
import type { CommandName } from '../control/commands.ts';
import { readPassword } from './prompt.ts';

/**
 * Adds `pipit user add|list|passwd|remove` and `pipit token create|list|revoke`: each runs through
 * the running service's control socket when there is one (`command`), else on a local service.
 *
 * @example
 * addAccountCommands(program, { command, print, localHelp: LOCAL_HELP });
 */
export function addAccountCommands(
  program: Command,
  deps: {
    command: (
      name: CommandName,
      args: Record<string, unknown>,
      opts: { local?: boolean },
    ) => Promise<unknown>;
    print: (value: unknown) => void;
    localHelp: string;
  },
): void {
  const user = program.command('user').description('manage users');
  user
    .command('add <name>')
    .description('add a user (the password is asked for, or read with --password-stdin)')
    .option('--password-stdin', 'read the password from standard input')
    .option('--local', deps.localHelp)
    .action(async (name: string, opts: { passwordStdin?: boolean; local?: boolean }) => {
      const password = await readPassword(`Password for ${name}: `, {
        fromStdin: Boolean(opts.passwordStdin),
        command: `user add ${name}`,
      });
      deps.print(await deps.command('user.add', { name, password }, opts));
    });
  user
    .command('list')
    .description('list the users')
    .option('--local', deps.localHelp)
    .action(async (opts: { local?: boolean }) =>
      deps.print(await deps.command('user.list', {}, opts)),
    );
  user
    .command('passwd <name>')
    .description("change a user's password (asked for, or read with --password-stdin)")
    .option('--password-stdin', 'read the password from standard input')
    .option('--local', deps.localHelp)
    .action(async (name: string, opts: { passwordStdin?: boolean; local?: boolean }) => {
      const password = await readPassword(`New password for ${name}: `, {
        fromStdin: Boolean(opts.passwordStdin),
        command: `user passwd ${name}`,
      });
      deps.print(await deps.command('user.passwd', { name, password }, opts));
    });
  user
    .command('remove <name>')
    .description('remove a user')
    .option('--local', deps.localHelp)
    .action(async (name: string, opts: { local?: boolean }) =>
      deps.print(await deps.command('user.remove', { name }, opts)),
    );

  const token = program.command('token').description('manage API tokens');
  token
    .command('create <user>')
    .description('create an API token for a user and print it')
    .option('--name <name>', 'a name to recognise the token by')
    .addOption(
      new Option('--expiry-days <days>', 'days until it expires (default: never)').argParser(
        Number,
      ),
    )
    .option('--local', deps.localHelp)
    .action(async (name: string, opts: { name?: string; expiryDays?: number; local?: boolean }) =>
      deps.print(
        await deps.command(
          'token.create',
          {
            user: name,
            ...(opts.name === undefined ? {} : { name: opts.name }),
            ...(opts.expiryDays === undefined ? {} : { expiry_days: opts.expiryDays }),
          },
          opts,
        ),
      ),
    );
  token
    .command('list <user>')
    .description("list a user's API tokens")
    .option('--local', deps.localHelp)
    .action(async (name: string, opts: { local?: boolean }) =>
      deps.print(await deps.command('token.list', { user: name }, opts)),
    );
  token
    .command('revoke <user> <id>')
    .description("revoke one of a user's API tokens by its id")
    .option('--local', deps.localHelp)
    .action(async (name: string, id: string, opts: { local?: boolean }) =>
      deps.print(await deps.command('token.revoke', { user: name, id }, opts)),
    );
}
