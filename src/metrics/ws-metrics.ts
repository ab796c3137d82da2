import { Counter, Gauge } from 'prom-client';
import type { Registry as PromRegistry } from 'prom-client';

/**
 * The WebSocket endpoints, the only values of the `endpoint` label.
 *
 * @example
 * const endpoint: WsEndpoint = '/ws/events';
 */
export type WsEndpoint = '/ws/events' | '/ws/requests';

/**
 * What the WebSocket handlers report.
 *
 * @example
 * service.metrics.ws.connection('/ws/requests', 1); // on open; -1 on close
 */
export interface WsMetrics {
  /** A connection authenticated and opened (+1) or closed (-1). */
  connection(endpoint: WsEndpoint, delta: 1 | -1): void;
  /** One event frame handed to a `/ws/events` client's socket. */
  eventDelivered(): void;
}

/**
 * `pipit_ws_connections{endpoint}` (open, authenticated WebSockets) and
 * `pipit_ws_events_delivered_total` (event frames sent to `/ws/events` clients).
 *
 * @example
 * const ws = wsMetrics(promRegistry);
 * ws.connection('/ws/events', 1);
 * ws.eventDelivered();
 */
export function wsMetrics(register: PromRegistry): WsMetrics {
  const registers = [register];
  const connections = new Gauge({
    name: 'pipit_ws_connections',
    help: 'Open authenticated WebSocket connections, by endpoint (/ws/events, /ws/requests).',
    labelNames: ['endpoint'] as const,
    registers,
  });
  // Both series exist from the start: a dashboard shows 0 rather than "no data".
  connections.set({ endpoint: '/ws/events' }, 0);
  connections.set({ endpoint: '/ws/requests' }, 0);
  const delivered = new Counter({
    name: 'pipit_ws_events_delivered_total',
    help: 'Event frames sent to /ws/events clients (one per event per subscribed client).',
    registers,
  });
  return {
    connection: (endpoint, delta) => connections.inc({ endpoint }, delta),
    eventDelivered: () => delivered.inc(),
  };
}
