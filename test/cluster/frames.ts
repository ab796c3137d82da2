// Counting what a /ws/events client receives, and waiting for it without sleeping.
import type { Client, Frame } from '../http/ws-client.ts';

/** Every event frame a client received, kept in order (never consumed, unlike `next`). */
export interface Received {
  all: Frame[];
  /** Resolves once `count` frames matching `match` have arrived (or at once if they have). */
  await(match: (frame: Frame) => boolean, count?: number, deadlineMs?: number): Promise<Frame[]>;
  count(match: (frame: Frame) => boolean): number;
}

/**
 * Records a client's event frames.
 *
 * @example
 * const seen = record(await events(alpha));
 * await seen.await(custom('ping'), 1);
 */
export function record(client: Client): Received {
  const all: Frame[] = [];
  let waiters: { check(): void }[] = [];
  client.ws.on('message', (data: Buffer) => {
    const frame: Frame = JSON.parse(data.toString());
    if (frame?.type !== 'event') return;
    all.push(frame);
    for (const w of waiters) w.check();
  });
  return {
    all,
    count: (match) => all.filter(match).length,
    await(match, count = 1, deadlineMs = 15_000) {
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => {
          waiters = waiters.filter((w) => w !== waiter);
          reject(
            new Error(
              `waited ${deadlineMs} ms for ${count} matching events, got ${all.filter(match).length}: ${JSON.stringify(all.slice(-5))}`,
            ),
          );
        }, deadlineMs);
        const waiter = {
          check() {
            const matched = all.filter(match);
            if (matched.length < count) return;
            clearTimeout(timer);
            waiters = waiters.filter((w) => w !== waiter);
            resolve(matched);
          },
        };
        waiters.push(waiter);
        waiter.check();
      });
    },
  };
}

/** Matches a CustomEvent of `subtype` whose `args` contain `args`. */
export function custom(subtype: string, args: Record<string, unknown> = {}) {
  return (frame: Frame): boolean =>
    frame.args?.subtype === subtype &&
    Object.entries(args).every(([k, v]) => frame.args?.args?.[k] === v);
}

/**
 * Hooks that answer a ping on every instance (`Echo` → `pong`) and once for the cluster
 * (`EchoOnce` → `pong-once`), each answer naming the instance: what the cluster tests count.
 *
 * @example
 * launch('alpha', redis.url, echoHooks('alpha'));
 */
export const echoHooks = (name: string): string => `event.hook.Echo:
  if: {type: CustomEvent, subtype: ping}
  then:
    - action: event.fire
      args: {subtype: pong, args: {by: ${name}, n: '\${args["n"]}'}}
event.hook.EchoOnce:
  once: true
  if: {type: CustomEvent, subtype: ping}
  then:
    - action: event.fire
      args: {subtype: pong-once, args: {by: ${name}, n: '\${args["n"]}'}}
`;
