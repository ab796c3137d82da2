import { describe, expect, it } from 'vitest';
import { Fifo } from '../../src/lib/fifo.ts';

describe('Fifo', () => {
  it('takes oldest first, drops from the front, and puts back in order', () => {
    const q = new Fifo<string>();
    for (const item of ['a', 'b', 'c', 'd']) q.push(item);
    expect(q.dropOldest(1)).toBe(1);
    expect(q.take(2)).toEqual(['b', 'c']);
    q.putBack(['b', 'c']);
    expect(q.length).toBe(3);
    expect(q.take(10)).toEqual(['b', 'c', 'd']);
    expect(q.length).toBe(0);
    expect(q.take(1)).toEqual([]);
    expect(q.dropOldest(5)).toBe(0);
    expect(q.dropOldest(-1)).toBe(0);
  });

  it('puts back more than was taken from the current array, ahead of what waits', () => {
    const q = new Fifo<number>();
    q.push(3);
    q.putBack([1, 2]);
    expect(q.take(3)).toEqual([1, 2, 3]);
  });

  it('keeps its order when it compacts after the head passes half of it', () => {
    const q = new Fifo<number>();
    for (let i = 0; i < 5000; i++) q.push(i);
    expect(q.take(3000)).toHaveLength(3000);
    q.putBack([2998, 2999]);
    q.push(5000);
    expect(q.take(3)).toEqual([2998, 2999, 3000]);
    expect(q.dropOldest(1000)).toBe(1000);
    expect(q.take(q.length)).toEqual(Array.from({ length: 1000 }, (_, i) => 4001 + i));
  });

  it('matches a plain array through long runs of every operation, across compactions', () => {
    const q = new Fifo<number>();
    const model: number[] = [];
    // A fixed pseudo-random sequence (a linear congruential generator): the same run every time.
    let seed = 42;
    const rand = (n: number) => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed % n;
    };
    let next = 0;
    for (let step = 0; step < 20_000; step++) {
      const op = rand(10);
      if (op < 6) {
        const n = rand(200);
        for (let i = 0; i < n; i++) {
          q.push(next);
          model.push(next++);
        }
      } else if (op < 8) {
        const n = rand(400);
        expect(q.take(n)).toEqual(model.splice(0, n));
      } else if (op < 9) {
        const n = rand(400);
        expect(q.dropOldest(n)).toBe(model.splice(0, n).length);
      } else {
        // What was taken goes back in front: the model is unchanged.
        q.putBack(q.take(rand(50)));
      }
      expect(q.length).toBe(model.length);
    }
    expect(q.take(q.length)).toEqual(model);
  });
});
