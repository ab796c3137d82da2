// Readable lines on a terminal (or when asked), JSON otherwise; stack traces only
// at debug.
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createLogger } from '../../src/core/logger.ts';

function capture(level: string, format: 'pretty' | 'json') {
  const sink = new PassThrough();
  let text = '';
  sink.on('data', (c: Buffer) => (text += c.toString()));
  const previous = process.env.PIPIT_LOG_LEVEL;
  delete process.env.PIPIT_LOG_LEVEL;
  const log = createLogger({ level, format, destination: sink });
  if (previous !== undefined) process.env.PIPIT_LOG_LEVEL = previous;
  return { log, text: () => text };
}

describe('createLogger', () => {
  it('pretty: a readable line with the time, the level and the message', () => {
    const { log, text } = capture('info', 'pretty');
    log.info({ action: 'utils.echo' }, 'ran it');
    expect(text()).toMatch(/^\[\d{2}:\d{2}:\d{2}\] INFO: ran it/);
    expect(text()).toContain('utils.echo');
    expect(text()).not.toMatch(/^\{/);
  });

  it('json: one JSON object per line', () => {
    const { log, text } = capture('info', 'json');
    log.info({ action: 'utils.echo' }, 'ran it');
    expect(JSON.parse(text())).toMatchObject({ level: 30, msg: 'ran it', action: 'utils.echo' });
  });

  it('stack traces only at debug', () => {
    const err = new Error('boom', { cause: new Error('underneath') });
    const info = capture('info', 'json');
    info.log.error({ err }, 'failed');
    const atInfo = JSON.parse(info.text()) as { err: Record<string, unknown> };
    expect(atInfo.err.message).toMatch(/boom/);
    expect(atInfo.err.stack).toBeUndefined();
    expect(JSON.stringify(atInfo)).not.toMatch(/logger\.test\.ts/);
    const debug = capture('debug', 'json');
    debug.log.error({ err }, 'failed');
    expect((JSON.parse(debug.text()) as { err: { stack: string } }).err.stack).toMatch(
      /logger\.test/,
    );
  });
});
