import type { RedisLink } from './link.ts';

interface Waiting {
  channel: string;
  message: string;
  resolve(receivers: number): void;
  reject(err: unknown): void;
}

/**
 * Publishes messages on Redis channels. The first message of a turn of the event loop goes out at
 * once (a lone request pays no wait); the ones that follow it in the same turn go out together at
 * the end of the turn as one pipeline (a write to a socket is the costly part, and requests arrive
 * in bursts). Each publication resolves with the number of connections that received it: 0 means
 * nobody listens on that channel (the instance is gone, or reconnecting).
 *
 * @example
 * const publisher = new Publisher(link);
 * if ((await publisher.publish('pipit:req:hall', sealed)) === 0) throw new Error('hall is not listening');
 */
export class Publisher {
  readonly #link: RedisLink;
  #waiting: Waiting[] = [];
  #busyTurn = false;

  constructor(link: RedisLink) {
    this.#link = link;
  }

  publish(channel: string, message: string): Promise<number> {
    if (!this.#busyTurn) {
      this.#busyTurn = true;
      setImmediate(() => this.#flush());
      return this.#link.command.publish(channel, message);
    }
    return new Promise((resolve, reject) => {
      this.#waiting.push({ channel, message, resolve, reject });
    });
  }

  #flush(): void {
    this.#busyTurn = false;
    const batch = this.#waiting;
    if (!batch.length) return;
    this.#waiting = [];
    const pipeline = this.#link.command.pipeline();
    for (const { channel, message } of batch) pipeline.publish(channel, message);
    pipeline.exec().then(
      (results) => {
        batch.forEach((waiting, i) => {
          const [err, receivers] = results?.[i] ?? [new Error('no reply from Redis'), 0];
          if (err) waiting.reject(err);
          else waiting.resolve(Number(receivers));
        });
      },
      (err: unknown) => {
        for (const waiting of batch) waiting.reject(err);
      },
    );
  }
}
