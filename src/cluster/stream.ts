import type { ChainableCommander, Redis } from 'ioredis';

/**
 * A stream id this far ahead of Redis' `TIME` was written by hand (`XADD … 9999999999999-0`): no
 * Redis clock steps that far back.
 */
export const FAR_AHEAD_MS = 60_000;

// XADD, then: an id far ahead of TIME means the stream's last id was pushed into the future, and
// every id after it would be too; the stream is recreated (its history is lost, the event is
// added again). Then the readers are woken (PUBLISH on the wake channel, no payload).
const PUBLISH_LUA = `
local id = redis.call('XADD', KEYS[1], 'MAXLEN', '~', ARGV[1], '*', 'm', ARGV[2])
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local reset = -1
if tonumber(string.match(id, '^(%d+)')) > now + tonumber(ARGV[3]) then
  reset = redis.call('XLEN', KEYS[1])
  redis.call('DEL', KEYS[1])
  id = redis.call('XADD', KEYS[1], 'MAXLEN', '~', ARGV[1], '*', 'm', ARGV[2])
end
redis.call('PUBLISH', ARGV[4], '')
return {id, reset}
`;

// Up to ARGV[2] entries from id ARGV[1] (inclusive): each as {id, m} where m is the field's text,
// or its size in bytes when the entry is larger than ARGV[3] (never sent), or false without one.
// An entry that large is no instance's (they publish nothing over max_event_bytes): it is deleted,
// so that nobody pays again for copying it in here (about a second per 20 MB), nor XINFO below
// (unless the ACL forbids XDEL: then it is only skipped).
// Then, from XINFO STREAM (whose reply holds whole entries: it stays in here): the last id ever
// generated (false: no stream), the count of entries ever added (false before Redis 7), the
// stream's length, and the id of its first entry (false: empty). MAXLEN trimming leaves
// max-deleted-entry-id alone: the count is what shows entries trimmed unread.
const READ_LUA = `
local entries = redis.call('XRANGE', KEYS[1], ARGV[1], '+', 'COUNT', ARGV[2])
local max = tonumber(ARGV[3])
local out = {}
for i, e in ipairs(entries) do
  local fields = e[2]
  local size = 0
  local m = false
  for j = 1, #fields, 2 do
    size = size + #fields[j] + #(fields[j + 1] or '')
    if fields[j] == 'm' then m = fields[j + 1] end
  end
  if size > max then
    m = size
    redis.pcall('XDEL', KEYS[1], e[1])
  end
  out[i] = {e[1], m}
end
local top = false
local added = false
local length = 0
local first = false
local info = redis.pcall('XINFO', 'STREAM', KEYS[1])
if type(info) == 'table' and info.err == nil then
  for i = 1, #info, 2 do
    if info[i] == 'last-generated-id' then top = info[i + 1] end
    if info[i] == 'entries-added' then added = info[i + 1] end
    if info[i] == 'length' then length = info[i + 1] end
    if info[i] == 'first-entry' and type(info[i + 1]) == 'table' then first = info[i + 1][1] end
  end
end
return {out, top, added, length, first}
`;

/** One entry as read: its id, and its `m` field (text), its size when too large, or null. */
export type StreamEntry = [id: string, m: string | number | null];

interface StreamCommands {
  pipitStreamAdd(
    key: string,
    maxLen: number,
    message: string,
    farAheadMs: number,
    wake: string,
  ): Promise<[string, number]>;
  pipitStreamRead(
    key: string,
    from: string,
    count: number,
    maxBytes: number,
  ): Promise<
    [
      entries: StreamEntry[],
      top: string | null,
      added: number | null,
      length: number,
      first: string | null,
    ]
  >;
}

type WithStream<T> = T & {
  pipitStreamAdd(...args: Parameters<StreamCommands['pipitStreamAdd']>): WithStream<T>;
};

const defined = new WeakSet<Redis>();

/**
 * The client with the stream's two scripts defined (EVALSHA, loaded on first use): the bus reads
 * entries through a script so that no entry larger than a cap ever leaves Redis (XREAD would send
 * it whole, and every instance would hold it in memory), and adds them through one so that an id
 * pushed into the future is noticed and repaired at the next event.
 *
 * @example
 * const [id] = await streamCommands(link.command).pipitStreamAdd('pipit:events', 10000, sealed, FAR_AHEAD_MS, keys.eventsWake);
 */
export function streamCommands(client: Redis): Redis & StreamCommands {
  if (!defined.has(client)) {
    client.defineCommand('pipitStreamAdd', { numberOfKeys: 1, lua: PUBLISH_LUA });
    client.defineCommand('pipitStreamRead', { numberOfKeys: 1, lua: READ_LUA });
    defined.add(client);
  }
  return client as Redis & StreamCommands;
}

/** A pipeline of the client given to {@link streamCommands}, with the add script. */
export function streamPipeline(client: Redis): WithStream<ChainableCommander> {
  return streamCommands(client).pipeline() as WithStream<ChainableCommander>;
}

const MAX_SEQ = 2n ** 64n - 1n;

/** The ms part of a stream id (`1795460107050-3` → 1795460107050). */
export function idTime(id: string): number {
  return Number(id.slice(0, id.indexOf('-')));
}

/**
 * The first id after `id`, for an inclusive XRANGE (Redis 5 has no exclusive one).
 *
 * @example
 * nextId('1795460107050-3'); // '1795460107050-4'
 */
export function nextId(id: string): string {
  const dash = id.indexOf('-');
  const seq = BigInt(id.slice(dash + 1));
  // The last sequence number of a millisecond: the next id is the next millisecond's first.
  return seq >= MAX_SEQ
    ? `${BigInt(id.slice(0, dash)) + 1n}-0`
    : `${id.slice(0, dash)}-${seq + 1n}`;
}

/**
 * True when `a` comes after `b` in a stream.
 *
 * @example
 * idAfter('10-0', '9-5'); // true
 */
export function idAfter(a: string, b: string): boolean {
  const [am, as] = a.split('-') as [string, string];
  const [bm, bs] = b.split('-') as [string, string];
  const ms = BigInt(am) - BigInt(bm);
  return ms > 0n || (ms === 0n && BigInt(as) > BigInt(bs));
}
