// WebSocket inputs for /ws/requests and /ws/events: frames (text, binary, invalid UTF-8) on an
// open connection, and new connections with odd credentials and origins.
import fc from 'fast-check';
import type { AuthKind, Payload, WsInput } from './common.ts';
import { maybe } from './common.ts';
import { ODD_AUTH } from './http.ts';
import {
  bytes,
  closedShape,
  depth,
  hugeLength,
  invalidUtf8,
  malformedFrom,
  nested,
  randomJson,
  requestPayload,
} from './payloads.ts';
import { kindName, requestId } from './requests.ts';
import { args, key, objectOf, shortText, value } from './values.ts';

const connectInput = fc
  .record({
    auth: fc.constantFrom<AuthKind>('valid', 'x-token', 'query', ...ODD_AUTH, 'valid-then-garbage'),
    origin: fc.constantFrom(undefined, 'http://evil.example', 'null', ''),
  })
  .map(({ auth, origin }): WsInput => ({
    kind: 'connect',
    label: `connect/${auth}`,
    auth,
    origin,
  }));

function frames(payload: fc.Arbitrary<Payload>): fc.Arbitrary<WsInput> {
  return fc.oneof(
    {
      weight: 40,
      arbitrary: payload.map((p): WsInput => ({
        kind: 'frame',
        label: p.label,
        data: p.data,
        binary: false,
      })),
    },
    {
      weight: 2,
      arbitrary: bytes.map((data): WsInput => ({
        kind: 'frame',
        label: 'binary',
        data,
        binary: true,
      })),
    },
    {
      weight: 1,
      arbitrary: payload.map((p): WsInput => ({
        kind: 'frame',
        label: `binary/${p.label}`,
        data: p.data,
        binary: true,
      })),
    },
    {
      weight: 1,
      arbitrary: invalidUtf8.map((data): WsInput => ({
        kind: 'frame',
        label: 'invalid-utf8',
        data,
        binary: false,
      })),
    },
    { weight: 1, arbitrary: connectInput },
  );
}

/** `/ws/requests` inputs: request frames of every kind, binary frames, odd connections. */
export const wsRequestsInput = frames(requestPayload);

/** An event message or a subscribe frame, often with fields of the wrong type. */
export const eventObject = fc
  .record({
    type: fc.oneof(
      { weight: 6, arbitrary: fc.constantFrom('event', 'subscribe') },
      { weight: 1, arbitrary: fc.constantFrom('events', 'Event', 'unsubscribe', 'request') },
      { weight: 1, arbitrary: value },
    ),
    args: fc.oneof(
      {
        weight: 6,
        arbitrary: fc
          .record(
            {
              type: fc.oneof({ weight: 5, arbitrary: kindName }, { weight: 1, arbitrary: value }),
              subtype: fc.oneof(shortText, value),
              args: fc.oneof({ weight: 4, arbitrary: args }, { weight: 1, arbitrary: value }),
              extra: maybe(fc.dictionary(key, value, { minKeys: 1, maxKeys: 2 }), 1, 4),
            },
            { requiredKeys: ['type'] },
          )
          .map(({ extra, ...fields }) =>
            objectOf([...Object.entries(fields), ...Object.entries(extra ?? {})]),
          ),
      },
      { weight: 1, arbitrary: value },
    ),
    events: fc.oneof(
      { weight: 6, arbitrary: fc.array(kindName, { maxLength: 5 }) },
      { weight: 1, arbitrary: fc.array(kindName, { minLength: 199, maxLength: 205 }) },
      { weight: 1, arbitrary: value },
    ),
    id: maybe(requestId, 1, 2),
    both: fc.boolean(),
    extra: maybe(fc.dictionary(key, value, { minKeys: 1, maxKeys: 2 }), 1, 8),
  })
  .map(({ type, args: eventArgs, events, id, both, extra }): Payload => {
    const entries: Array<[string, unknown]> = [
      ['type', type],
      ['args', type === 'subscribe' && !both ? undefined : eventArgs],
      ['events', type === 'event' && !both ? undefined : events],
      ['id', id],
      ...Object.entries(extra ?? {}),
    ];
    return {
      label: `event/${typeof type === 'string' ? type : 'other'}`,
      data: JSON.stringify(objectOf(entries)),
    };
  });

/** Deep nesting in event frames. */
export const deepEvent = fc
  .record({
    depth,
    shape: closedShape,
    place: fc.constantFrom('top', 'unclosed', 'args', 'event-args', 'subtype', 'events', 'id'),
  })
  .map(({ depth: d, shape, place }): Payload => {
    const deep = nested(d, shape);
    const data = {
      top: deep,
      unclosed: nested(d, 'unclosed'),
      args: `{"type":"event","args":{"type":"CustomEvent","subtype":"deep","args":{"v":${deep}}}}`,
      'event-args': `{"type":"event","args":${deep}}`,
      subtype: `{"type":"event","args":{"type":"CustomEvent","subtype":${deep}}}`,
      events: `{"type":"subscribe","events":${deep}}`,
      id: `{"type":"event","id":${deep},"args":{"type":"CustomEvent","subtype":"deep"}}`,
    }[place];
    return { label: `deep/${place}`, data };
  });

/** Huge event frames. */
export const hugeEvent = fc
  .record({ n: hugeLength, kind: fc.constantFrom('args', 'subtype', 'events') })
  .map(({ n, kind }): Payload => {
    const data = {
      args: `{"type":"event","args":{"type":"CustomEvent","subtype":"huge","args":{"v":"${'x'.repeat(n)}"}}}`,
      subtype: `{"type":"event","args":{"type":"CustomEvent","subtype":"${'s'.repeat(n)}"}}`,
      events: `{"type":"subscribe","events":[${'"CustomEvent",'.repeat(Math.floor(n / 14))}"CustomEvent"]}`,
    }[kind];
    return { label: `huge/${kind}`, data };
  });

/** Everything that may arrive on `/ws/events`. */
export const eventPayload: fc.Arbitrary<Payload> = fc.oneof(
  { weight: 14, arbitrary: eventObject },
  { weight: 2, arbitrary: randomJson },
  { weight: 3, arbitrary: malformedFrom(eventObject) },
  { weight: 3, arbitrary: deepEvent },
  { weight: 1, arbitrary: hugeEvent },
);

/** `/ws/events` inputs. */
export const wsEventsInput = frames(eventPayload);
