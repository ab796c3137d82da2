import { once } from 'node:events';
import { createServer } from 'node:http';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';

/** A local HTTP server for the http plugin's tests, on 127.0.0.1 and a free port. */
export interface TestServer {
  server: Server;
  /** http://127.0.0.1:<port> */
  url: string;
  port: number;
  /** Requests seen per path, for retry tests. */
  hits: Map<string, number>;
  close(): Promise<void>;
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

function json(
  res: ServerResponse,
  status: number,
  value: unknown,
  headers: Record<string, string> = {},
) {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify(value));
}

/**
 * Starts the server. Routes: /echo (method, path, query, headers, body as JSON), /text, /bin, /gzip,
 * /cookies, /status/<code> (JSON), /page/<code> (HTML), /redirect/<n> (n hops, then /echo), /see-other (303), /temporary (307),
 * /away?to=<url>, /slow (never answers), /limited (429 + Retry-After: 1 once per `?key`),
 * /unavailable?fail=<n> (503 n times per key), /big?bytes=<n>[&chunked=1].
 */
export async function startServer(): Promise<TestServer> {
  const hits = new Map<string, number>();
  const server = createServer((req, res) => {
    void (async () => {
      const url = new URL(req.url ?? '/', 'http://127.0.0.1');
      const key = `${url.pathname}?${url.searchParams.get('key') ?? ''}`;
      const seen = (hits.get(key) ?? 0) + 1;
      hits.set(key, seen);
      const body = await readBody(req);
      const path = url.pathname;
      if (path === '/echo') {
        return json(res, 200, {
          method: req.method,
          path,
          query: [...url.searchParams.entries()],
          headers: req.headers,
          body,
        });
      }
      if (path === '/text')
        return res.writeHead(200, { 'content-type': 'text/plain; charset=utf-8' }).end('hello');
      if (path === '/bin')
        return res
          .writeHead(200, { 'content-type': 'application/octet-stream' })
          .end(Buffer.from([0, 1, 2, 255]));
      if (path === '/gzip') {
        return res
          .writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip' })
          .end(gzipSync(JSON.stringify({ zipped: true })));
      }
      if (path === '/cookies') {
        res.setHeader('set-cookie', ['a=1; Path=/', 'b=2; Path=/']);
        return json(res, 200, {});
      }
      const status = /^\/status\/(\d+)$/.exec(path);
      if (status) return json(res, Number(status[1]), { error: `status ${status[1]}` });
      const page = /^\/page\/(\d+)$/.exec(path);
      if (page) {
        return res
          .writeHead(Number(page[1]), { 'content-type': 'text/html' })
          .end(`<h1>Error ${page[1]}</h1>`);
      }
      const redirect = /^\/redirect\/(\d+)$/.exec(path);
      if (redirect) {
        const n = Number(redirect[1]);
        return res.writeHead(302, { location: n > 1 ? `/redirect/${n - 1}` : '/echo' }).end();
      }
      if (path === '/see-other') return res.writeHead(303, { location: '/echo' }).end();
      if (path === '/temporary') return res.writeHead(307, { location: '/echo' }).end();
      if (path === '/away')
        return res.writeHead(302, { location: url.searchParams.get('to')! }).end();
      if (path === '/slow') return; // never answers
      if (path === '/limited') {
        if (seen === 1) return json(res, 429, { error: 'slow down' }, { 'retry-after': '1' });
        return json(res, 200, { ok: true, attempt: seen });
      }
      if (path === '/unavailable') {
        if (seen <= Number(url.searchParams.get('fail') ?? 1))
          return json(res, 503, { error: 'busy' });
        return json(res, 200, { ok: true, attempt: seen });
      }
      if (path === '/big') {
        const bytes = Number(url.searchParams.get('bytes'));
        const chunked = url.searchParams.get('chunked') === '1';
        res.writeHead(200, {
          'content-type': 'text/plain',
          ...(chunked ? {} : { 'content-length': String(bytes) }),
        });
        const piece = Buffer.alloc(64 * 1024, 'x');
        for (let sent = 0; sent < bytes; sent += piece.length) {
          if (!res.write(piece.subarray(0, Math.min(piece.length, bytes - sent))))
            await once(res, 'drain');
          if (res.destroyed) return;
        }
        return res.end();
      }
      json(res, 404, { error: 'no route' });
    })().catch(() => res.destroy());
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return {
    server,
    port,
    url: `http://127.0.0.1:${port}`,
    hits,
    async close() {
      server.closeAllConnections();
      server.close();
      await once(server, 'close');
    },
  };
}
