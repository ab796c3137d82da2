// Written against the public plugin API only, as a plugin package is (npm run lint:layers).
import { defineAction, definePlugin, definePluginHead, pyStr, z } from './api/index.ts';
import type { PluginAction } from './api/index.ts';

const MAX_TEXT = 10_000;

// Any value, as Platypush's logger takes: a web hook's `msg: ${data}` is often an object.
const Params = {
  msg: z
    .unknown()
    .refine((v) => v !== undefined, 'required: the message (any value: text, number, object, list)')
    .describe('the message to write to the service log: text, or any value (written as text)'),
};

// What is written: text as it is, other values as Python's str() shows them (as Platypush logs
// them), cut to MAX_TEXT characters so that one large payload cannot flood the log.
function asText(msg: unknown): string {
  let text: string;
  try {
    text = typeof msg === 'string' ? msg : pyStr(msg);
  } catch (err) {
    // Nested past 100 levels, or over a million characters as text: said, not thrown.
    text = `(a value that cannot be written as text: ${(err as Error).message})`;
  }
  return text.length > MAX_TEXT
    ? `${text.slice(0, MAX_TEXT)}… (${text.length - MAX_TEXT} more characters)`
    : text;
}

function level(name: 'debug' | 'info' | 'warning' | 'error'): PluginAction<typeof Params> {
  const pinoLevel = name === 'warning' ? 'warn' : name;
  return defineAction({
    name,
    summary: `Writes a message to the service log at ${name} level.`,
    params: Params,
    run: ({ msg }, { log }) => {
      log[pinoLevel]({ source: 'logger' }, asText(msg));
    },
  });
}

/**
 * `logger`'s facts, for the catalog: on by default (it is loaded with every service anyway).
 *
 * @example
 * definePlugin({ ...headFacts(head), summary: '...', actions });
 */
export const head = definePluginHead({ name: 'logger', enabledByDefault: true });

export default definePlugin({
  ...head,
  summary: 'Writes messages to the service log.',
  actions: [level('debug'), level('info'), level('warning'), level('error')],
});
