// Requests Node's parser or fastify's router refuse are answered in Pipit's
// response format, never fastify's {error, message, statusCode}.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listening } from '../helpers/listening.ts';
import type { Listening } from '../helpers/listening.ts';
import { parseAnswer, rawConnect } from '../helpers/raw-http.ts';

let s: Listening;
beforeAll(async () => {
  s = await listening();
});
afterAll(() => s.close());

async function send(text: string) {
  const c = await rawConnect(s.http, text);
  return parseAnswer(await c.closed);
}

describe('malformed HTTP', () => {
  it.each([
    [
      'an oversized header',
      `GET /auth/status HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`,
      431,
      /headers are larger than the server accepts/,
    ],
    [
      'a NUL in a header',
      'GET /auth/status HTTP/1.1\r\nHost: x\r\nX-Bad: a\0b\r\n\r\n',
      400,
      /not allowed/,
    ],
    [
      'bad chunking',
      'POST /hook/x HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\nhello\r\n0\r\n\r\n',
      400,
      /chunk/,
    ],
    [
      'Content-Length with Transfer-Encoding',
      'POST /hook/x HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n',
      400,
      /Content-Length/,
    ],
    ['a garbage request line', 'HELLO\r\n\r\n', 400, /./],
  ])('%s: answered in Pipit format', async (_what, text, status, message) => {
    const answer = await send(text);
    expect(answer.status).toBe(status);
    expect(answer.headers).toContain('content-type: application/json');
    expect(answer.headers).toContain('x-content-type-options: nosniff');
    expect(answer.body?.type).toBe('response');
    expect(answer.body?.response?.errors[0]).toMatch(message);
    expect(JSON.stringify(answer.body)).not.toMatch(/"statusCode"/);
  });

  it('a URL the router cannot decode: 400 with a response message', async () => {
    const res = await fetch(`${s.http}/hook/%E0%A4%A`);
    expect(res.status).toBe(400);
    const body = (await res.json()) as { type: string; response: { errors: string[] } };
    expect(body.type).toBe('response');
    expect(body.response.errors[0]).toMatch(/URL cannot be decoded/);
  });
});
