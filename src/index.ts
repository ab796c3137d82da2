/**
 * Pipit as a library: `run()` actions and procedures in-process, `Config.init()` to choose the
 * configuration, and the helpers to write plugins.
 *
 * @example
 * import { Config, run } from 'pipit';
 * Config.init('./config.yaml');
 * console.log(await run('utils.echo', { text: 'hi' }));
 */
export { Config, run, shutdown } from './app/library.ts';
export * from './plugins/api/index.ts';
export { ErrorCodes } from './core/errors.ts';
export type { ErrorCode } from './core/errors.ts';
export type { ResponseMessage, Request } from './core/messages.ts';
export { startPipit, resolveConfig } from './app/runtime.ts';
export { procedure, hook, cron } from './scripts/api.ts';
export type { ScriptEvent } from './scripts/api.ts';
export { CoreKinds } from './events/kinds.ts';
export type { PipitEvent } from './events/event.ts';

/** Event kind names for `hook()`: `hook(WebhookEvent, {hook: 'door'}, fn)`. */
export const CustomEvent = 'pipit.message.event.custom.CustomEvent';
export const WebhookEvent = 'pipit.message.event.http.hook.WebhookEvent';
export const ApplicationStartedEvent = 'pipit.message.event.application.ApplicationStartedEvent';
export const ApplicationStoppedEvent = 'pipit.message.event.application.ApplicationStoppedEvent';
