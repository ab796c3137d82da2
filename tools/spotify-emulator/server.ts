import { createServer } from 'node:http';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { handleAuthorize } from './accounts/authorize.ts';
import { handleToken } from './accounts/token.ts';
import type { EmulatorControl } from './control.ts';
import { handleControl } from './control-routes.ts';
import type { FaultEngine } from './faults.ts';
import { faultReply } from './faults.ts';
import type { EmuRequest, Reply } from './http.ts';
import { errorReply } from './http.ts';
import type { RequestLog } from './request-log.ts';
import { handleApi } from './routes/api.ts';

const MAX_BODY = 2 * 1024 * 1024;

/** What the HTTP layer needs. */
export interface ServerDeps {
  control: EmulatorControl;
  faults: FaultEngine;
  log: RequestLog;
  logToStdout: boolean;
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY) throw new Error('body too large');
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}

function parseBody(raw: string, contentType: string): { body: unknown; bad: boolean } {
  if (raw === '') return { body: undefined, bad: false };
  if (contentType.includes('application/x-www-form-urlencoded')) {
    return { body: Object.fromEntries(new URLSearchParams(raw)), bad: false };
  }
  try {
    return { body: JSON.parse(raw) as unknown, bad: false };
  } catch {
    // Non-JSON text (e.g. an image upload) is kept raw; only a declared JSON body is an error.
    return { body: raw, bad: contentType.includes('json') };
  }
}

function send(res: ServerResponse, reply: Reply): void {
  const headers: Record<string, string> = { ...reply.headers };
  let payload = '';
  if (reply.json !== undefined) {
    payload = JSON.stringify(reply.json);
    headers['content-type'] = 'application/json; charset=utf-8';
  } else if (reply.text !== undefined && reply.text !== '') {
    payload = reply.text;
    headers['content-type'] = reply.contentType ?? 'text/plain; charset=utf-8';
  }
  if (reply.status !== 204 && reply.status !== 304)
    headers['content-length'] = String(Buffer.byteLength(payload));
  res.writeHead(reply.status, headers);
  res.end(reply.status === 204 ? undefined : payload);
}

function route(deps: ServerDeps, req: EmuRequest, rawForm: URLSearchParams): Reply {
  const state = deps.control.state;
  if (req.path === '/authorize' && req.method === 'GET') return handleAuthorize(state, req.query);
  if (req.path === '/api/token') {
    if (req.method !== 'POST')
      return { status: 405, json: { error: 'invalid_request', error_description: 'POST only' } };
    return handleToken(state, req.headers, rawForm);
  }
  if (req.path === '/v1' || req.path.startsWith('/v1/')) {
    const limited = deps.faults.limit(state.clock.now());
    return limited ?? handleApi(state, req);
  }
  return errorReply(404, 'Service not found');
}

async function handle(
  deps: ServerDeps,
  origin: () => string,
  req: IncomingMessage,
  res: ServerResponse,
) {
  const url = new URL(req.url ?? '/', 'http://emulator');
  const method = (req.method ?? 'GET').toUpperCase();
  const raw = await readBody(req);
  const contentType = req.headers['content-type'] ?? '';
  const { body, bad } = parseBody(raw, contentType);
  const emu: EmuRequest = {
    method,
    path: url.pathname,
    query: url.searchParams,
    params: {},
    headers: req.headers,
    body,
    rawBody: raw,
    origin: origin(),
  };
  if (url.pathname.startsWith('/_emulator')) return send(res, handleControl(deps.control, emu));
  // The token endpoint reads only form bodies (a JSON body = missing grant_type, as on Spotify).
  const form = new URLSearchParams(
    contentType.includes('application/x-www-form-urlencoded') ? raw : '',
  );
  const fault = deps.faults.match(method, url.pathname);
  if (fault?.delayMs) await new Promise((resolve) => setTimeout(resolve, fault.delayMs));
  let reply: Reply;
  if (fault?.response) reply = faultReply(fault.response);
  else if (bad) reply = errorReply(400, 'Error parsing json');
  else reply = route(deps, emu, form);
  const entry = deps.log.add({
    at: deps.control.now(),
    method,
    path: url.pathname,
    query: Object.fromEntries(url.searchParams),
    body: body ?? null,
    status: reply.status,
    ...(fault?.response ? { fault: fault.id } : {}),
  });
  if (deps.logToStdout) console.log(`${entry.method} ${req.url ?? ''} -> ${entry.status}`);
  send(res, reply);
}

/**
 * The HTTP server for the Accounts service, the Web API and the control API on one port.
 * @example
 * const server = createEmulatorServer(deps, () => origin);
 */
export function createEmulatorServer(deps: ServerDeps, origin: () => string): Server {
  return createServer((req, res) => {
    handle(deps, origin, req, res).catch((error: unknown) => {
      console.error('spotify-emulator: internal error', error);
      if (!res.headersSent) send(res, errorReply(500, 'Server error.'));
      else res.destroy();
    });
  });
}
