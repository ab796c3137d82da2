import type { IncomingMessage, ServerResponse } from 'node:http';
import type { TelegramEmulator } from './index.ts';

function json(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}

async function body(req: IncomingMessage): Promise<Record<string, unknown>> {
  let text = '';
  for await (const chunk of req) text += String(chunk);
  if (!text.trim()) return {};
  const parsed = JSON.parse(text) as unknown;
  return parsed && typeof parsed === 'object' ? (parsed as Record<string, unknown>) : {};
}

/**
 * The test side over HTTP, for the CLI (README.md): `POST /_control/message {text, chat?, from?}`,
 * `/_control/update <Update>`, `/_control/fail {method, error_code, description?, retry_after?,
 * times?}`, `/_control/stall {on, method?}`, `/_control/token {token}`, `/_control/restart`;
 * `GET /_control/sent` (what the bot sent) and `/_control/calls`.
 */
export async function controlRoute(
  emu: TelegramEmulator,
  req: IncomingMessage,
  res: ServerResponse,
  url: URL,
): Promise<void> {
  const c = emu.control;
  const what = `${req.method} ${url.pathname.slice('/_control/'.length)}`;
  let input: Record<string, unknown>;
  try {
    input = req.method === 'POST' ? await body(req) : {};
  } catch {
    return json(res, 400, { error: 'the body is not JSON' });
  }
  switch (what) {
    case 'POST message':
      return json(res, 200, c.userMessage(input) ?? null);
    case 'POST update':
      return json(res, 200, c.pushUpdate(input) ?? null);
    case 'POST fail': {
      const { method, times, ...fault } = input;
      c.fail(
        typeof method === 'string' ? method : '*',
        fault as never,
        typeof times === 'number' ? times : 1,
      );
      return json(res, 200, { ok: true });
    }
    case 'POST stall':
      c.stall(input.on === true, typeof input.method === 'string' ? input.method : '*');
      return json(res, 200, { ok: true });
    case 'POST token':
      c.setToken(String(input.token));
      return json(res, 200, { ok: true });
    case 'POST restart':
      json(res, 200, { ok: true });
      res.on('finish', () => void emu.restart());
      return;
    case 'GET sent':
      return json(res, 200, c.sent());
    case 'GET calls':
      return json(
        res,
        200,
        c.calls.map(({ files: _files, ...call }) => call),
      );
    default:
      return json(res, 404, { error: `no control route ${what}` });
  }
}
