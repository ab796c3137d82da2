import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { lazySchemaCompilers } from '../../src/http/lazy-compilers.ts';

describe('lazySchemaCompilers', () => {
  it('validates and serialises with fastify’s default compilers, loaded on first use', async () => {
    const app = Fastify({ schemaController: lazySchemaCompilers() });
    app.post(
      '/r',
      {
        schema: {
          body: {
            type: 'object',
            required: ['n'],
            properties: { n: { type: 'integer', minimum: 1 } },
          },
          response: { 200: { type: 'object', properties: { n: { type: 'integer' } } } },
        },
      },
      async (req) => ({ n: (req.body as { n: number }).n, dropped: 'by the serializer' }),
    );
    const ok = await app.inject({ method: 'POST', url: '/r', payload: { n: 2 } });
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toEqual({ n: 2 });
    const bad = await app.inject({ method: 'POST', url: '/r', payload: { n: 0 } });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toMatch(/must be >= 1/);
    await app.close();
  });
});
