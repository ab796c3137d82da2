import { z } from 'zod';
import { PipitError } from '../../core/errors.ts';
import { parseJsonLimited } from '../../core/json-limits.ts';
import { IncomingEvent } from '../../events/event.ts';
import { safeParse } from '../../lib/safe-parse.ts';

/** WebSocket close codes Pipit uses, and what each means to a client. */
export const CloseCode = {
  /** Server shutting down: reconnect later. */
  GOING_AWAY: 1001,
  /** Not authenticated, revoked token, ended session, or a cross-site origin: do not retry as is. */
  POLICY: 1008,
  /** A frame larger than the size limit (sent by `ws` itself). */
  TOO_BIG: 1009,
  /** The client did not read fast enough and its send buffer overflowed: reconnect and read. */
  TRY_AGAIN_LATER: 1013,
} as const;

/** A close reason may hold at most 123 bytes of UTF-8 (RFC 6455 §5.5). */
export function closeReason(text: string): string {
  if (Buffer.byteLength(text) <= 123) return text;
  let cut = text.slice(0, 120);
  while (Buffer.byteLength(cut) > 120) cut = cut.slice(0, -1);
  return `${cut}...`;
}

/**
 * A subscribe frame on `/ws/events`: the kinds the client wants (any spelling), `[]` for all.
 *
 * @example
 * SubscribeFrame.parse({ type: 'subscribe', events: ['CustomEvent'] });
 */
export const SubscribeFrame = z.object({
  type: z.literal('subscribe'),
  events: z
    .array(z.string().min(1).max(200), {
      error: 'field "events" must be a list of event kinds, e.g. ["CustomEvent"] ([] for all)',
    })
    .max(200, 'field "events" names more than 200 kinds'),
});

/**
 * Every frame a client may send on `/ws/events`: an event to publish, or a subscribe filter.
 *
 * @example
 * EventsInbound.parse({ type: 'event', args: { type: 'CustomEvent', subtype: 'door' } });
 */
export const EventsInbound = z.discriminatedUnion('type', [IncomingEvent, SubscribeFrame], {
  error: (issue) =>
    issue.code === 'invalid_union'
      ? 'field "type" must be "event" (publish an event) or "subscribe" (choose event kinds)'
      : undefined,
});
export type EventsInbound = z.output<typeof EventsInbound>;

/**
 * The JSON of a text frame. Binary frames, malformed JSON and JSON nested past
 * `MAX_JSON_DEPTH` (core/json-limits.ts) are BAD_REQUEST with a message that says what to send instead.
 *
 * @example
 * decodeFrame(Buffer.from('{"type":"subscribe","events":[]}'), false); // { type: 'subscribe', events: [] }
 */
export function decodeFrame(data: Buffer | ArrayBuffer | Buffer[], isBinary: boolean): unknown {
  if (isBinary) {
    throw new PipitError(
      'BAD_REQUEST',
      'binary frames are not accepted: send JSON as a text frame',
    );
  }
  const text = Array.isArray(data)
    ? Buffer.concat(data).toString()
    : Buffer.isBuffer(data)
      ? data.toString()
      : Buffer.from(data).toString();
  return parseJsonLimited(text, 'the frame');
}

/**
 * Parses a decoded frame with a schema, or throws BAD_REQUEST naming every bad field.
 *
 * @example
 * const frame = parseFrame(EventsInbound, decodeFrame(data, isBinary));
 */
export function parseFrame<T extends z.ZodType>(schema: T, value: unknown): z.output<T> {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw new PipitError(
      'BAD_REQUEST',
      'a frame must be a JSON object like {"type": "event", "args": {"type": "CustomEvent", "subtype": "x"}}',
    );
  }
  const result = safeParse(schema, value);
  if (result.success) return result.data;
  throw new PipitError(
    'BAD_REQUEST',
    result.error.issues
      .map((i) =>
        i.path.length && !i.message.includes('field "')
          ? `field "${i.path.join('.')}": ${i.message}`
          : i.message,
      )
      .join('\n'),
    { cause: result.error },
  );
}

/**
 * The error frame of `/ws/events`: `{"type": "error", "errors": ["..."]}`.
 *
 * @example
 * socket.send(errorFrame(['unknown event kind "Foo"']));
 */
export function errorFrame(errors: string[]): string {
  return JSON.stringify({ type: 'error', errors });
}
