// The answering side of a routed request without Redis: what serveRequest runs, how long the
// request may run (the caller's deadline), and what it publishes.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Publisher } from '../../src/cluster/publisher.ts';
import { Seal } from '../../src/cluster/seal.ts';
import { serveRequest } from '../../src/cluster/serve.ts';
import type { ServeOptions } from '../../src/cluster/serve.ts';
import { clusterKeys } from '../../src/cluster/wire.ts';
import type { RequestWire } from '../../src/cluster/wire.ts';
import { PipitError } from '../../src/core/errors.ts';
import type { Execute } from '../../src/core/execute.ts';
import { createLogger } from '../../src/core/logger.ts';
import { buildResponse } from '../../src/core/messages.ts';

const seal = new Seal('a-secret-of-at-least-16-chars');

function request(deadlineInMs: number): RequestWire {
  const now = Date.now();
  return {
    v: 1,
    kind: 'request',
    from: 'kitchen',
    iid: 'i1',
    ts: now,
    nonce: '4f2b7c1e-0d7a-4d5e-9a8b-1c2d3e4f5a6b',
    to: 'hall',
    id: 'i1-1',
    deadline: now + deadlineInMs,
    caller: { user: 'ada', via: 'token' },
    depth: 0,
    request: { action: 'utils.sleep', args: { seconds: 60 }, id: 'client-1' },
  };
}

// Captures what would go to Redis: the channel and the sealed text.
function options(execute: Execute): { opts: ServeOptions; published: [string, string][] } {
  const published: [string, string][] = [];
  const publisher = {
    publish: (channel: string, message: string) => {
      published.push([channel, message]);
      return Promise.resolve(1);
    },
  } as unknown as Publisher;
  const opts: ServeOptions = {
    seal,
    publisher,
    self: { deviceId: 'hall', iid: 'i2' },
    log: createLogger({ level: 'silent' }),
    keys: clusterKeys(),
    execute: () => execute,
    refusal: () => null,
  };
  return { opts, published };
}

const answered = (signal: AbortSignal | undefined) =>
  buildResponse({
    id: 'client-1',
    target: 'cluster',
    origin: 'hall',
    output: signal?.aborted ? undefined : 'done',
    errors: signal?.aborted ? [(signal.reason as Error).message] : [],
  });

describe('serveRequest', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it("aborts a request still running at the caller's deadline, and answers it", async () => {
    let seen: AbortSignal | undefined;
    const execute = ((_raw, opts) => {
      seen = opts.signal;
      return new Promise((resolve) =>
        opts.signal!.addEventListener('abort', () => resolve({ message: answered(opts.signal) })),
      );
    }) as Execute;
    const { opts, published } = options(execute);
    const served = serveRequest(request(3000), opts);
    await vi.advanceTimersByTimeAsync(2999);
    expect(seen?.aborted).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    await served;
    expect(seen?.aborted).toBe(true);
    expect(seen?.reason).toBeInstanceOf(PipitError);
    expect((seen?.reason as PipitError).code).toBe('TIMEOUT');
    expect(published).toHaveLength(1);
    const [channel, text] = published[0]!;
    expect(channel).toBe(clusterKeys().replies('kitchen'));
    const opened = seal.open(text);
    expect(opened.ok).toBe(true);
    const payload = JSON.parse((opened as { json: string }).json) as {
      to: string;
      id: string;
      message: { response: { errors: string[] } };
    };
    expect(payload).toMatchObject({ to: 'kitchen', id: 'i1-1' });
    expect(payload.message.response.errors[0]).toMatch(/deadline passed \(from "kitchen"\)/);
  });

  it('leaves no timer behind once the request is answered', async () => {
    let seen: AbortSignal | undefined;
    const execute = ((_raw, opts) => {
      seen = opts.signal;
      return Promise.resolve({ message: answered(opts.signal) });
    }) as Execute;
    const { opts, published } = options(execute);
    await serveRequest(request(3000), opts);
    expect(published).toHaveLength(1);
    expect(vi.getTimerCount()).toBe(0);
    await vi.advanceTimersByTimeAsync(10_000);
    expect(seen?.aborted).toBe(false);
  });
});
