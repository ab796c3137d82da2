import { z } from 'zod';
import { secret } from '../core/action.ts';

/**
 * `redis`: several instances share one Redis server and form a cluster (events on every instance,
 * requests by `target`, `once: true` hooks and crons). `secret` signs every message between them
 * and must be the same on every instance; without it (a Platypush `redis: {host, port}` section)
 * the instance runs alone.
 *
 * @example
 * RedisConfig.parse({ url: 'redis://10.0.0.2:6379', secret: process.env.PIPIT_CLUSTER_SECRET });
 */
export const RedisConfig = z.strictObject({
  url: z
    .string()
    .regex(/^rediss?:\/\//, 'must start with redis:// or rediss://')
    .describe('redis://[user:password@]host:port[/db], or rediss:// for TLS'),
  secret: secret(
    z
      .string()
      .min(16, 'use at least 16 characters, e.g. the output of "openssl rand -hex 32"')
      .optional()
      .describe(
        'shared by every instance: signs every message between them; write it as !env NAME',
      ),
  ),
  previous_secrets: secret(
    z
      .array(z.string().min(16, 'use at least 16 characters'))
      .max(8)
      .default([])
      .describe(
        'while rotating redis.secret: former secrets still accepted to verify messages, never used to sign',
      ),
  ),
  key_prefix: z
    .string()
    .regex(/^[\w.:-]{1,64}$/, 'use letters, digits, "_", ".", ":" or "-" (at most 64)')
    .default('pipit')
    .describe(
      'every key and channel of this cluster starts with it: give two clusters sharing one Redis different prefixes',
    ),
  command_timeout_seconds: z
    .number()
    .min(0.1)
    .max(60)
    .default(3)
    .describe(
      'a Redis command (or the heartbeat PING) not answered within this is an error: the link is marked down',
    ),
  request_timeout_seconds: z
    .number()
    .min(0.1)
    .max(3600)
    .default(10)
    .describe('how long a request for another instance waits for its answer before a 504'),
  heartbeat_seconds: z
    .number()
    .min(0.1)
    .max(300)
    .default(2)
    .describe('how often an instance announces itself; after 3 missed it is gone'),
  stream_length: z
    .number()
    .int()
    .min(100)
    .max(10_000_000)
    .default(10_000)
    .describe('events kept in the Redis stream, for instances that reconnect'),
  max_event_bytes: z
    .number()
    .int()
    .min(1_024)
    .max(16 * 1024 * 1024)
    .default(65_536)
    .describe(
      'an event whose JSON is larger is delivered on its own instance only; larger stream entries are not read',
    ),
  catch_up_seconds: z
    .number()
    .min(0)
    .max(86_400)
    .default(300)
    .describe('on reconnecting, events missed up to this old are still delivered'),
  clock_skew_seconds: z
    .number()
    .min(1)
    .max(3600)
    .default(30)
    .describe(
      'a signed message older or newer than this is refused as a replay (keep clocks in sync)',
    ),
  buffer_events: z
    .number()
    .int()
    .min(0)
    .max(1_000_000)
    .default(1_000)
    .describe('events kept in memory while Redis is unreachable, published when it is back'),
});
export type RedisConfig = z.output<typeof RedisConfig>;

/** The settings of a cluster that can start: a `redis` section with its secret. */
export type ClusterSettings = RedisConfig & { secret: string };
