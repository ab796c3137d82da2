import { z } from 'zod';
import { ErrorCodes } from '../core/errors.ts';
import { ResponseMessage } from '../core/messages.ts';

/** The Redis keys and channels of one cluster (see {@link clusterKeys}). */
export interface ClusterKeys {
  /** The event stream. */
  events: string;
  /** A channel whose (empty) messages wake the stream's readers: an event was added. */
  eventsWake: string;
  /** A sorted set naming the live heartbeat keys (score: when the entry was written, epoch ms). */
  members: string;
  /** One instance's heartbeat: a key of its own, with an expiry, written only by that instance. */
  instance(deviceId: string, iid: string): string;
  requests(deviceId: string): string;
  replies(deviceId: string): string;
  once(key: string): string;
  /** A key no instance ever writes: the permission probes' target. */
  probe: string;
}

/**
 * The Redis keys and channels a cluster uses, all under `<prefix>:` (`redis.key_prefix`, `pipit`
 * by default), so that two clusters can share one Redis. Events are one stream; each instance
 * listens for requests on its own channel and answers on the caller's reply channel; each
 * instance's heartbeat is a key of its own with an expiry; `once` locks are keys with an expiry.
 *
 * @example
 * const keys = clusterKeys('home');
 * await redis.publish(keys.requests('kitchen'), sealed); // channel home:req:kitchen
 */
export function clusterKeys(prefix = 'pipit'): ClusterKeys {
  return {
    events: `${prefix}:events`,
    eventsWake: `${prefix}:events:wake`,
    members: `${prefix}:members`,
    instance: (deviceId, iid) => `${prefix}:instance:${deviceId}:${iid}`,
    requests: (deviceId) => `${prefix}:req:${deviceId}`,
    replies: (deviceId) => `${prefix}:reply:${deviceId}`,
    once: (key) => `${prefix}:once:${key}`,
    probe: `${prefix}:probe`,
  };
}

/**
 * The keys under the default prefix `pipit`.
 *
 * @example
 * KEYS.events; // 'pipit:events'
 */
export const KEYS: ClusterKeys = clusterKeys();

const DeviceId = z.string().regex(/^[\w.-]{1,64}$/);

// Every message: who sent it (device_id and the process' random instance id), when (epoch ms,
// the sender's clock) and a random nonce. All of it is under the signature.
const Envelope = {
  v: z.literal(1),
  from: DeviceId,
  iid: z.string().min(8).max(64),
  ts: z.number().finite(),
  nonce: z.string().min(16).max(64),
};

/** Who asked, as the receiving instance records it (never a token, only its id). */
export const WireCaller = z.object({
  user: z.string().min(1).max(200),
  via: z.string().min(1).max(64),
  token_id: z.string().max(128).optional(),
});
export type WireCaller = z.output<typeof WireCaller>;

/**
 * An event published by one instance for all the others (on the `pipit:events` stream). `event`
 * is Pipit's internal form (`pipit.message.event.*` kinds); each receiver shows it to its
 * clients in its own `event.namespace`.
 *
 * @example
 * EventWire.parse({ v: 1, kind: 'event', from: 'kitchen', iid, ts, nonce, event });
 */
export const EventWire = z.object({
  ...Envelope,
  kind: z.literal('event'),
  event: z.looseObject({
    type: z.literal('event'),
    id: z.string().min(1).max(128),
    origin: z.string().max(128),
    target: z.string().max(128),
    _timestamp: z.number(),
    args: z.looseObject({ type: z.string().min(1).max(300) }),
  }),
});
export type EventWire = z.output<typeof EventWire>;

/**
 * A request for one instance (`to`), published on its request channel. `id` correlates the answer;
 * `deadline` (epoch ms) is when the caller stops waiting; `caller` is who asked (null: a hook,
 * cron or script of the sending instance); `depth` is the procedure nesting so far.
 *
 * @example
 * RequestWire.parse({ v: 1, kind: 'request', from: 'kitchen', to: 'hall', id: 'r1', ... });
 */
export const RequestWire = z.object({
  ...Envelope,
  kind: z.literal('request'),
  to: DeviceId,
  id: z.string().min(1).max(64),
  deadline: z.number().finite(),
  caller: WireCaller.nullable(),
  depth: z.number().int().min(0).max(1000),
  request: z.object({
    action: z.string().min(3).max(256),
    // Checked, not rebuilt: zod rebuilds records by assignment, which would turn a `__proto__`
    // key into a prototype (execute() validates the arguments itself).
    args: z
      .custom<Record<string, unknown>>(
        (v) => v !== null && typeof v === 'object' && !Array.isArray(v),
        'must be an object',
      )
      .optional(),
    id: z.string().max(128).optional(),
  }),
});
export type RequestWire = z.output<typeof RequestWire>;

/**
 * The answer to a request, published on the caller's reply channel: the response message as the
 * instance that ran it built it, and the error code behind it (null on success) so that the
 * caller's transport answers with the same status as a local call would.
 *
 * @example
 * ResponseWire.parse({ v: 1, kind: 'response', from: 'hall', to: 'kitchen', id: 'r1', code: null, message });
 */
export const ResponseWire = z.object({
  ...Envelope,
  kind: z.literal('response'),
  to: DeviceId,
  id: z.string().min(1).max(64),
  code: z.enum(ErrorCodes).nullable(),
  message: ResponseMessage,
});
export type ResponseWire = z.output<typeof ResponseWire>;

/**
 * An instance's announcement, its key `pipit:instance:<device_id>:<iid>`, rewritten every heartbeat.
 *
 * @example
 * HeartbeatWire.parse({ v: 1, kind: 'heartbeat', from: 'hall', iid, ts, nonce, version: '0.1.0', plugins: ['utils'], started_at, interval_ms: 2000 });
 */
export const HeartbeatWire = z.object({
  ...Envelope,
  kind: z.literal('heartbeat'),
  version: z.string().max(64),
  plugins: z.array(z.string().max(200)).max(1000),
  started_at: z.number().finite(),
  interval_ms: z.number().positive(),
});
export type HeartbeatWire = z.output<typeof HeartbeatWire>;

/** Any message between instances. */
export const Wire = z.discriminatedUnion('kind', [
  EventWire,
  RequestWire,
  ResponseWire,
  HeartbeatWire,
]);
export type Wire = z.output<typeof Wire>;
