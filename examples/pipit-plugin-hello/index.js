// An example plugin package for Pipit, in plain JavaScript so that it runs from node_modules as it
// is (Node does not strip TypeScript types there). `pipit plugin new` writes one in TypeScript.
import { defineAction, definePlugin, z } from 'pipit';

const Config = z.strictObject({
  greeting: z.string().min(1).default('Hello').describe('the word to greet with'),
});

const greet = defineAction({
  name: 'greet',
  summary: 'Greets someone, counts it, and raises a GreetedEvent.',
  params: {
    name: z.string().min(1).max(100).describe('who to greet'),
  },
  run: async ({ name }, { state, kv, fire, user }) => {
    const count = (kv.get('count') ?? 0) + 1;
    kv.set('count', count);
    kv.set('last', name);
    await fire('GreetedEvent', { name, count });
    return { text: `${state.greeting}, ${name}!`, count, by: user };
  },
});

const count = defineAction({
  name: 'count',
  summary: 'How many greetings so far (kept across restarts).',
  params: {},
  run: (_args, { kv }) => ({ count: kv.get('count') ?? 0 }),
});

const echoVia = defineAction({
  name: 'echo_via',
  summary: "Calls utils.echo as the caller, to show a plugin calling another plugin's action.",
  params: { text: z.string().describe('what utils.echo sends back') },
  run: ({ text }, { run }) => run('utils.echo', { text }),
});

export default definePlugin({
  name: 'hello',
  summary: 'Greets people (an example plugin package).',
  config: Config,
  events: {
    GreetedEvent: z.object({
      name: z.string().describe('who was greeted'),
      count: z.number().int().describe('greetings so far'),
    }),
  },
  actions: [greet, count, echoVia],
  init: ({ config, log }) => {
    log.info({ greeting: config.greeting }, 'hello plugin ready');
    return { greeting: config.greeting };
  },
  routes: [
    {
      method: 'GET',
      path: '/last',
      handler: (req, state) => ({ greeting: state.greeting, user: req.user }),
    },
    { method: 'GET', path: '/ping', public: true, handler: () => ({ pong: true }) },
  ],
});
