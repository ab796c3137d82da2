import { z } from 'zod';
import { PipitError } from '../core/errors.ts';
import { reloadService } from '../app/reload.ts';
import type { Service } from '../app/service.ts';
import { ExpiryDays } from '../auth/expiry.ts';
import { safeParse } from '../lib/safe-parse.ts';

function findUser(service: Service, name: string) {
  const row = service.store.users.byName(name);
  if (!row) throw new PipitError('NOT_FOUND', `no user named "${name}" (see "pipit user list")`);
  return row;
}

const Name = z.string().min(1).max(64);

/**
 * The CLI's state-changing commands, one definition each, run the same way in the CLI's own process
 * (`--local`) and in the running service (through its control socket), so that the service sees
 * its users and tokens change at once.
 *
 * @example
 * await COMMANDS['token.create'].run(service, COMMANDS['token.create'].args.parse({ user: 'ada' }));
 */
export const COMMANDS = {
  'user.add': {
    args: z.strictObject({ name: Name, password: z.string() }),
    run: async (s: Service, a: { name: string; password: string }) => ({
      username: (await s.auth.addUser(a.name, a.password)).username,
    }),
  },
  'user.passwd': {
    args: z.strictObject({ name: Name, password: z.string() }),
    run: async (s: Service, a: { name: string; password: string }) => {
      await s.auth.setPassword(findUser(s, a.name).id, a.password);
      return { username: a.name, password_changed: true };
    },
  },
  'user.remove': {
    args: z.strictObject({ name: Name }),
    run: (s: Service, a: { name: string }) =>
      Promise.resolve({ username: a.name, removed: s.auth.removeUser(findUser(s, a.name).id) }),
  },
  'user.list': {
    args: z.strictObject({}),
    run: (s: Service) => Promise.resolve(s.store.users.list()),
  },
  'token.create': {
    args: z.strictObject({
      user: Name,
      name: z.string().max(100).optional(),
      expiry_days: ExpiryDays,
    }),
    run: (
      s: Service,
      a: { user: string; name?: string | undefined; expiry_days?: number | null | undefined },
    ) => s.auth.issueToken(findUser(s, a.user), { name: a.name, expiryDays: a.expiry_days }),
  },
  'token.list': {
    args: z.strictObject({ user: Name }),
    run: (s: Service, a: { user: string }) =>
      Promise.resolve(s.auth.listTokens(findUser(s, a.user).id)),
  },
  'token.revoke': {
    args: z.strictObject({ user: Name, id: z.string().min(1).max(100) }),
    run: (s: Service, a: { user: string; id: string }) => {
      s.auth.revokeToken(findUser(s, a.user).id, a.id);
      return Promise.resolve({ id: a.id, revoked: true });
    },
  },
  'service.status': {
    args: z.strictObject({}),
    run: (s: Service) => Promise.resolve(serviceStatus(s)),
  },
  'service.reload': {
    args: z.strictObject({}),
    run: (s: Service) => reloadService(s),
  },
} as const;

/** The name of a CLI command that the control socket runs. */
export type CommandName = keyof typeof COMMANDS;

/**
 * Validates and runs one command on a service: BAD_REQUEST for an unknown command or bad arguments.
 *
 * @example
 * await runCommand(service, 'user.list', {});
 */
export async function runCommand(service: Service, name: string, args: unknown): Promise<unknown> {
  const command = (
    COMMANDS as Record<string, { args: z.ZodType; run: (s: Service, a: never) => Promise<unknown> }>
  )[name];
  if (!command) throw new PipitError('BAD_REQUEST', `no command "${name}"`);
  const parsed = safeParse(command.args, args);
  if (!parsed.success)
    throw new PipitError(
      'BAD_REQUEST',
      `${name}: ${parsed.error.issues.map((i) => `${i.path.join('.') || 'arguments'}: ${i.message}`).join('; ')}`,
    );
  return command.run(service, parsed.data as never);
}

/**
 * What `pipit status` shows of a running service: its name and each plugin it runs, with where it
 * came from and whether it started (a plugin package that failed says why).
 *
 * @example
 * serviceStatus(service).plugins[0]; // { name: 'hello', package: 'pipit-plugin-hello', state: 'started', ... }
 */
export function serviceStatus(s: Service) {
  return {
    device_id: s.config.deviceId,
    pid: process.pid,
    plugins: [...s.registry.plugins.values()]
      .map((p) => ({
        name: p.def.name,
        source: p.def.from ? 'package' : 'built-in',
        ...(p.def.from
          ? { package: p.def.from.package, version: p.def.from.version, path: p.def.from.path }
          : {}),
        state: p.failed === undefined ? 'started' : 'failed',
        ...(p.failed === undefined ? {} : { error: p.failed }),
        ...(p.failed === undefined && p.def.health ? { link: p.def.health(p.state) } : {}),
      }))
      .sort((a, b) => a.name.localeCompare(b.name)),
  };
}
