import { mqttAction } from './params.ts';

export const status = mqttAction({
  name: 'status',
  summary:
    'The connection to the configured broker: state (connecting, connected, reconnecting, or "not configured"), subscriptions, counters, last error; and connections to other brokers.',
  params: {},
  run: (_args, { state }) => {
    const others = [...state.others.values()].map((conn) => conn.status());
    if (!state.main) {
      return {
        state: 'not configured',
        hint: 'add "mqtt: {host: <broker>}" to the configuration to connect at start; mqtt.publish can also name a broker with host and port',
        connections: others,
      };
    }
    return { ...state.main.status(), connections: others };
  },
});
