import type { Logger } from '../core/logger.ts';
import type { Inbound } from './inbound.ts';
import type { RedisLink } from './link.ts';
import { reportNoPerm } from './checks.ts';
import { RequestWire, ResponseWire } from './wire.ts';
import type { ClusterKeys } from './wire.ts';

/** What {@link Inbox} needs. */
export interface InboxOptions {
  link: RedisLink;
  inbound: Inbound;
  keys: ClusterKeys;
  self: { deviceId: string; iid: string };
  log: Logger;
  /** A verified request for this instance, still within its deadline. */
  onRequest(msg: RequestWire): void;
  /** A verified answer to one of this instance's requests. */
  onReply(msg: ResponseWire): void;
}

/**
 * This instance's two channels, on a connection of their own in subscriber mode: requests from
 * other instances (`pipit:req:<device_id>`) and answers to its own (`pipit:reply:<device_id>`).
 * Redis pushes each message as it is published (no command per message), and the subscription is
 * renewed on every reconnection. Each message is checked (seal, schema, addressee, replay) before
 * it is handed on; a request whose caller has stopped waiting is dropped rather than run.
 *
 * A message published while this instance is not subscribed reaches nobody: the publisher learns
 * it at once (no receiver) and fails the call instead of waiting for a timeout.
 *
 * @example
 * const inbox = new Inbox({ link, inbound, self, log, onRequest, onReply });
 * inbox.start();
 */
export class Inbox {
  readonly #opts: InboxOptions;
  readonly #requests: string;
  readonly #replies: string;

  constructor(opts: InboxOptions) {
    this.#opts = opts;
    this.#requests = opts.keys.requests(opts.self.deviceId);
    this.#replies = opts.keys.replies(opts.self.deviceId);
  }

  start(): void {
    const client = this.#opts.link.inbox;
    client.on('message', (channel: string, text: string) => {
      if (channel === this.#requests) this.#request(text);
      else if (channel === this.#replies) this.#reply(text);
    });
    // ioredis subscribes again by itself after a reconnection; this is the first subscription,
    // retried until Redis answers.
    const { link } = this.#opts;
    const subscribe = () =>
      void client.subscribe(this.#requests, this.#replies).then(
        () => link.fault('noperm:subscribe', null),
        (err: unknown) => {
          if (link.closed) return;
          // Refused by the ACL: said once, tried again in a while (the ACL may be fixed).
          if (reportNoPerm(link, err, 'subscribe')) setTimeout(subscribe, 5_000).unref();
          else void link.ready(client).then(subscribe);
        },
      );
    subscribe();
  }

  #request(text: string): void {
    const { inbound, self, log } = this.#opts;
    const key = this.#requests;
    const msg = inbound.open(text, RequestWire, key);
    if (!msg) return;
    if (msg.to !== self.deviceId) {
      inbound.refusals.refuse('wrong_target', { key, from: msg.from });
      return;
    }
    if (!inbound.fresh(msg, Date.now(), key)) return;
    if (Date.now() > msg.deadline) {
      log.debug(
        { from: msg.from, action: msg.request.action },
        'dropped a request its caller gave up on',
      );
      return;
    }
    this.#opts.onRequest(msg);
  }

  #reply(text: string): void {
    const { inbound, self } = this.#opts;
    const key = this.#replies;
    const msg = inbound.open(text, ResponseWire, key);
    if (!msg) return;
    if (msg.to !== self.deviceId) {
      inbound.refusals.refuse('wrong_target', { key, from: msg.from });
      return;
    }
    if (inbound.fresh(msg, Date.now(), key)) this.#opts.onReply(msg);
  }
}
