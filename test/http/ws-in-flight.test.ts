// Only requests really running count against the in-flight cap, so pipelined
// requests that finish at once are all answered.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { closeAll, connect } from './ws-client.ts';
import type { Frame } from './ws-client.ts';
import { listening } from '../helpers/listening.ts';
import type { Listening } from '../helpers/listening.ts';

let s: Listening;
beforeAll(async () => {
  s = await listening();
});
afterAll(() => s.close());
afterEach(() => closeAll());

describe('/ws/requests in-flight cap', () => {
  it('answers 2,000 pipelined instant echoes, none refused', async () => {
    const c = await connect(`${s.ws}/ws/requests`, { headers: s.auth });
    const frames = Array.from({ length: 2000 }, (_, i) =>
      JSON.stringify({ type: 'requests', action: 'utils.echo', args: { i }, id: `e${i}` }),
    );
    // Sent back to back: the server reads them in bursts, many frames per turn of the event loop.
    for (const f of frames) c.ws.send(f);
    const answers: Frame[] = await Promise.all(
      frames.map((_, i): Promise<Frame> => c.next((f) => f.id === `e${i}`)),
    );
    expect(answers.filter((f) => f.response.errors.length)).toEqual([]);
    expect(answers.map((f): unknown => f.response.output.i)).toEqual(frames.map((_, i) => i));
  });

  it('still refuses requests past the cap while they are really running', async () => {
    const c = await connect(`${s.ws}/ws/requests`, { headers: s.auth });
    for (let i = 0; i < 33; i++)
      c.send({ type: 'requests', action: 'utils.sleep', args: { seconds: 0.2 }, id: `s${i}` });
    const refused = await c.next((f) => f.id === 's32');
    expect(refused.response.errors[0]).toMatch(
      /too many requests in flight on this connection \(cap 32\)/,
    );
    const first = await c.next((f) => f.id === 's0');
    expect(first.response.errors).toEqual([]);
  });
});
