import { createServer } from 'node:http';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { WebSocketServer } from 'ws';
import type { WebSocket } from 'ws';
import { DEFAULT_ENTITIES, EntityStates, haTime, newContext } from './entities.ts';
import type { HaState, StateChange } from './entities.ts';
import { callService, HaError } from './services.ts';
import type { ServiceCall } from './services.ts';

export { DEFAULT_ENTITIES } from './entities.ts';
export type { HaState } from './entities.ts';

/** Options of {@link startHomeAssistantEmulator}; all optional. */
export interface EmulatorOptions {
  port?: number;
  host?: string;
  /** The one long-lived access token accepted (default `emulator-token`). */
  token?: string;
  haVersion?: string;
  entities?: ReadonlyArray<{ entity_id: string; state: string; attributes?: object }>;
  /** Print one line per message received. */
  logToStdout?: boolean;
}

/** A fired event as the emulator's bus holds it. */
export interface BusEvent {
  event_type: string;
  data: Record<string, unknown>;
  origin: 'LOCAL' | 'REMOTE';
  time_fired: string;
  context: ReturnType<typeof newContext>;
}

interface Client {
  socket: WebSocket;
  authed: boolean;
  lastId: number;
  /** subscription id → event type (null: every event). */
  subscriptions: Map<number, string | null>;
}

/** A running emulator and its control functions for tests. */
export interface HomeAssistantEmulator {
  /** `http://127.0.0.1:PORT`: what Pipit's `homeassistant.url` takes. */
  url: string;
  token: string;
  port: number;
  control: {
    /** Sets a state from outside (a door sensor opening) and fires `state_changed`. */
    setState(entityId: string, state: string, attributes?: Record<string, unknown>): void;
    /** Removes an entity (fires `state_changed` with `new_state: null`, as HA does). */
    removeEntity(entityId: string): void;
    getState(entityId: string): HaState | undefined;
    /** While on, commands (and pings) get no answer: the link looks dead. */
    stall(on: boolean): void;
    /** Drops every connection (the server keeps listening). */
    closeConnections(): void;
    /** Stops listening and drops every connection, until {@link start}. */
    stop(): Promise<void>;
    /** Listens again on the same port. */
    start(): Promise<void>;
    /** Connections that completed authentication, open now. */
    authedConnections(): number;
    /** Every command received, in order, per connection number (1-based, in connect order). */
    commands: Array<{ connection: number; message: Record<string, unknown> }>;
    /** Events fired with `fire_event`. */
    fired: BusEvent[];
    /** Messages left unanswered while stalled. */
    ignored(): number;
    /** Authentication attempts refused. */
    authFailures(): number;
  };
  close(): Promise<void>;
}

/**
 * Starts an emulator of Home Assistant's WebSocket API (`/api/websocket`) on a free port.
 *
 * @example
 * const ha = await startHomeAssistantEmulator({ token: 'secret' });
 * ha.control.setState('binary_sensor.front_door', 'on');
 * await ha.close();
 */
export async function startHomeAssistantEmulator(
  options: EmulatorOptions = {},
): Promise<HomeAssistantEmulator> {
  const token = options.token ?? 'emulator-token';
  const haVersion = options.haVersion ?? '2026.11.0';
  const host = options.host ?? '127.0.0.1';
  const states = new EntityStates(options.entities ?? DEFAULT_ENTITIES);
  const clients = new Set<Client>();
  const commands: HomeAssistantEmulator['control']['commands'] = [];
  const fired: BusEvent[] = [];
  let stalled = false;
  let connections = 0;
  let authFailures = 0;
  let ignored = 0;

  const send = (client: Client, message: unknown) => {
    if (client.socket.readyState === client.socket.OPEN)
      client.socket.send(JSON.stringify(message));
  };
  const publish = (event: BusEvent) => {
    for (const client of clients)
      for (const [id, type] of client.subscriptions)
        if (type === null || type === event.event_type) send(client, { id, type: 'event', event });
  };
  const stateChanged = (change: StateChange, context = newContext()) =>
    publish({
      event_type: 'state_changed',
      data: { ...change },
      origin: 'LOCAL',
      time_fired: haTime(),
      context,
    });

  const command = (client: Client, msg: Record<string, unknown>) => {
    const id = msg.id as number;
    const ok = (result: unknown) => send(client, { id, type: 'result', success: true, result });
    const fail = (code: string, message: string) =>
      send(client, { id, type: 'result', success: false, error: { code, message } });
    if (!Number.isInteger(id))
      return fail(
        'invalid_format',
        "Message incorrectly formatted: expected int for dictionary value @ data['id']",
      );
    if (id <= client.lastId) return fail('id_reuse', 'Identifier values have to increase.');
    client.lastId = id;
    switch (msg.type) {
      case 'ping':
        return send(client, { id, type: 'pong' });
      case 'subscribe_events':
        client.subscriptions.set(id, typeof msg.event_type === 'string' ? msg.event_type : null);
        return ok(null);
      case 'unsubscribe_events':
        if (!client.subscriptions.delete(msg.subscription as number))
          return fail('not_found', 'Subscription not found.');
        return ok(null);
      case 'get_states':
        return ok(states.all());
      case 'fire_event': {
        if (typeof msg.event_type !== 'string')
          return fail(
            'invalid_format',
            "Message incorrectly formatted: required key not provided @ data['event_type']",
          );
        const context = newContext();
        const event: BusEvent = {
          event_type: msg.event_type,
          data: (msg.event_data as Record<string, unknown>) ?? {},
          origin: 'REMOTE',
          time_fired: haTime(),
          context,
        };
        fired.push(event);
        publish(event);
        return ok({ context });
      }
      case 'call_service': {
        const context = newContext();
        try {
          const { changes, response } = callService(states, msg as unknown as ServiceCall, context);
          for (const change of changes) stateChanged(change, context);
          return ok({ context, response });
        } catch (err) {
          if (err instanceof HaError) return fail(err.code, err.message);
          throw err;
        }
      }
      default:
        return fail('unknown_command', 'Unknown command.');
    }
  };

  const wss = new WebSocketServer({ noServer: true });
  wss.on('connection', (socket: WebSocket) => {
    const client: Client = { socket, authed: false, lastId: 0, subscriptions: new Map() };
    const number = ++connections;
    clients.add(client);
    socket.on('close', () => clients.delete(client));
    socket.on('error', () => socket.terminate());
    send(client, { type: 'auth_required', ha_version: haVersion });
    socket.on('message', (raw) => {
      if (stalled) {
        ignored++;
        return;
      }
      let msg: Record<string, unknown>;
      try {
        msg = JSON.parse((raw as Buffer).toString()) as Record<string, unknown>;
      } catch {
        return socket.close(1003);
      }
      if (options.logToStdout)
        console.log(
          `#${number} ${msg.type === 'auth' ? '{"type":"auth",…}' : JSON.stringify(msg)}`,
        );
      if (!client.authed) {
        if (msg.type === 'auth' && msg.access_token === token) {
          client.authed = true;
          return send(client, { type: 'auth_ok', ha_version: haVersion });
        }
        authFailures++;
        send(client, { type: 'auth_invalid', message: 'Invalid access token or password' });
        return socket.close();
      }
      commands.push({ connection: number, message: msg });
      command(client, msg);
    });
  });

  let server: Server = createServer();
  let port = options.port ?? 0;
  const listen = async () => {
    server = createServer((_req, res) => {
      res.writeHead(404).end();
    });
    server.on('upgrade', (req, socket, head) => {
      if (new URL(req.url ?? '/', 'http://x').pathname !== '/api/websocket') {
        socket.end('HTTP/1.1 404 Not Found\r\n\r\n');
        return;
      }
      wss.handleUpgrade(req, socket, head, (ws) => wss.emit('connection', ws, req));
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, host, () => resolve());
    });
    port = (server.address() as AddressInfo).port;
  };
  const dropAll = () => {
    for (const client of clients) client.socket.terminate();
    clients.clear();
  };
  const stop = async () => {
    dropAll();
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  };
  await listen();

  return {
    url: `http://${host}:${port}`,
    token,
    port,
    control: {
      setState(entityId, state, attributes) {
        stateChanged(states.set(entityId, state, attributes));
      },
      removeEntity(entityId) {
        const change = states.remove(entityId);
        if (change) stateChanged(change);
      },
      getState: (entityId) => states.get(entityId),
      stall(on) {
        stalled = on;
      },
      closeConnections: dropAll,
      stop,
      start: listen,
      authedConnections: () => [...clients].filter((c) => c.authed).length,
      commands,
      fired,
      authFailures: () => authFailures,
      ignored: () => ignored,
    },
    close: async () => {
      await stop();
      wss.close();
    },
  };
}
