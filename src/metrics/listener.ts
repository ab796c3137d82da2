import { once } from 'node:events';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { PipitError } from '../core/errors.ts';
import type { Logger } from '../core/logger.ts';
import { nodeHttp } from '../lib/node-http.ts';
import { METRICS_CONTENT_TYPE } from './metrics.ts';

/**
 * A listening metrics server.
 *
 * @example
 * const { url, close } = await startMetricsListener({ port: 0, host: '127.0.0.1', scrape, log });
 */
export interface MetricsListener {
  /** `http://host:port/metrics`, with the port actually bound. */
  url: string;
  /** Stops listening and drops open connections (scrapers keep theirs alive). */
  close(): Promise<void>;
}

function listenError(err: unknown, port: number, host: string): unknown {
  const code = (err as NodeJS.ErrnoException).code;
  const fix: Record<string, string> = {
    EADDRINUSE: `port ${port} on ${host} is already in use: set backend.http.metrics.port to a free port`,
    EACCES: `not allowed to listen on port ${port}: ports below 1024 need privileges; set backend.http.metrics.port to 1024 or above`,
    EADDRNOTAVAIL: `cannot listen on ${host}: it is not an address of this machine; fix backend.http.metrics.bind_address`,
    ENOTFOUND: `cannot listen on ${host}: it is not an address of this machine; fix backend.http.metrics.bind_address`,
  };
  const message = code ? fix[code] : undefined;
  return message
    ? new PipitError('CONFIG_INVALID', `/metrics listener: ${message}`, { cause: err })
    : err;
}

/**
 * Serves `GET /metrics` without authentication on an address of its own (`backend.http.metrics`),
 * for a Prometheus that reaches it over a private interface. Nothing else is served there: other
 * paths are 404, other methods 405. CONFIG_INVALID when the port is taken or the address is not
 * this machine's.
 *
 * @example
 * const listener = await startMetricsListener({ port: 9464, host: '127.0.0.1', scrape, log });
 * await listener.close();
 */
export async function startMetricsListener(opts: {
  port: number;
  host: string;
  scrape: () => Promise<string>;
  log: Logger;
}): Promise<MetricsListener> {
  const { scrape, log } = opts;
  const text = (res: ServerResponse, status: number, body: string) => {
    res.writeHead(status, { 'content-type': 'text/plain; charset=utf-8' }).end(body);
  };
  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const path = (req.url ?? '/').split('?')[0];
    if (path !== '/metrics')
      return text(res, 404, 'not found: this address serves /metrics only\n');
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.setHeader('allow', 'GET, HEAD');
      return text(res, 405, 'method not allowed: use GET /metrics\n');
    }
    const body = await scrape();
    res.writeHead(200, {
      'content-type': METRICS_CONTENT_TYPE,
      'cache-control': 'no-store',
      'x-content-type-options': 'nosniff',
    });
    res.end(req.method === 'HEAD' ? undefined : body);
  };
  const server = nodeHttp.createServer((req, res) => {
    handle(req, res).catch((err: unknown) => {
      log.error({ err }, 'could not collect the metrics');
      if (!res.headersSent) text(res, 500, 'could not collect the metrics (see the service log)\n');
      else res.destroy();
    });
  });
  // A scraper that stalls must not hold a connection for long.
  server.headersTimeout = 10_000;
  server.requestTimeout = 30_000;
  try {
    server.listen(opts.port, opts.host);
    await once(server, 'listening');
  } catch (err) {
    throw listenError(err, opts.port, opts.host);
  }
  const { port } = server.address() as AddressInfo;
  const host = opts.host.includes(':') ? `[${opts.host}]` : opts.host;
  return {
    url: `http://${host}:${port}/metrics`,
    async close() {
      if (!server.listening) return;
      const closed = once(server, 'close');
      server.close();
      server.closeAllConnections();
      await closed;
    },
  };
}
