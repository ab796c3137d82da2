import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { REDACTED, redactArgs, secret } from '../../../src/core/action.ts';
import { requestParams } from '../../../src/plugins/http/actions.ts';
import { MqttConfig } from '../../../src/plugins/mqtt/config.ts';
import { publish } from '../../../src/plugins/mqtt/publish.ts';

describe('secret parameters', () => {
  it('masks the arguments marked secret, and only those', () => {
    const args = { url: 'https://x', auth: ['ada', 'pw'], password: 'pw', headers: { a: 'b' } };
    expect(redactArgs(requestParams, args)).toEqual({
      url: 'https://x',
      auth: REDACTED,
      password: REDACTED,
      headers: { a: 'b' },
    });
    expect(args.password).toBe('pw');
    const plain = { url: 'https://x' };
    expect(redactArgs(requestParams, plain)).toBe(plain);
    expect(redactArgs(publish.params, { topic: 't', msg: 'm', password: 'pw' })).toEqual({
      topic: 't',
      msg: 'm',
      password: REDACTED,
    });
  });

  it('keeps the description and shows the mark in JSON Schema', () => {
    const schema = secret(z.string().optional().describe('a token'));
    expect(schema.description).toBe('a token');
    expect(z.toJSONSchema(z.object({ token: schema }))).toMatchObject({
      properties: { token: { type: 'string', secret: true, description: 'a token' } },
    });
    expect(z.toJSONSchema(MqttConfig, { io: 'input' })).toMatchObject({
      properties: { password: { secret: true } },
    });
  });
});
