// fast-check generators of hostile WebSocket frames for the daemon fuzz test. Frames are built as
// text: a value nested thousands of levels deep cannot go through JSON.stringify, and duplicate
// keys or broken JSON are the point.
import fc from 'fast-check';

/** Strings that have broken parsers before: separators, escapes, surrogates, prototype keys, Pusher prefixes. */
export const specialStrings = [
  '', ' ', '\u0000', '\t', '\n', '\r\n', '%', '%00', '%zz', '..', '/', '\\', '"', "'", '{', '[', '}', ']', ':', ',',
  '\uD800', '\uDFFF', '\uFEFF', '\u202E', '\u2028', 'é', '😀', 'null', 'true', '0', '-1', '1e999', 'NaN',
  '__proto__', 'constructor', 'prototype', 'toString',
  'private-', 'presence-', 'private-encrypted-', 'cache-', '#server-to-user-u1', 'client-', 'pusher:', 'pusher_internal:',
  'private-fuzz', 'presence-fuzz', 'public-fuzz', 'u1', '1234.5678', 'key:0000',
];

/** One character repeated to around and past the 10 kB message limit and the 100 kB payload limit. */
const hugeString = fc
  .tuple(
    fc.constantFrom('x', 'é', '😀', '\u0000', '"', '\\', '['),
    fc.oneof(
      { weight: 2, arbitrary: fc.integer({ min: 100, max: 2_000 }) },
      { weight: 2, arbitrary: fc.integer({ min: 9_900, max: 10_100 }) },
      { weight: 1, arbitrary: fc.integer({ min: 20_000, max: 30_000 }) },
    ),
  )
  .map(([unit, length]) => unit.repeat(Math.ceil(length / unit.length)));

export const nastyString: fc.Arbitrary<string> = fc.oneof(
  { weight: 3, arbitrary: fc.string({ unit: 'binary', maxLength: 30 }) },
  { weight: 2, arbitrary: fc.string({ unit: 'grapheme', maxLength: 30 }) },
  { weight: 3, arbitrary: fc.constantFrom(...specialStrings) },
  { weight: 1, arbitrary: fc.array(fc.constantFrom(...specialStrings), { maxLength: 6 }).map((parts) => parts.join('')) },
  { weight: 1, arbitrary: hugeString },
);

/** JSON nested `depth` levels deep, as text. */
export function deepJsonText(depth: number, shape: 'array' | 'object' | 'mixed'): string {
  if (shape === 'array') return `${'['.repeat(depth)}${']'.repeat(depth)}`;
  if (shape === 'object') return `${'{"a":'.repeat(depth - 1)}{}${'}'.repeat(depth - 1)}`;
  let open = '';
  let close = '';
  for (let level = 1; level < depth; level++) {
    open += level % 2 === 0 ? '[1,' : '{"k":';
    close = `${level % 2 === 0 ? ']' : '}'}${close}`;
  }
  return `${open}null${close}`;
}

/** Around the default depth bound (64) and far past it: a few thousand levels overflowed JSON.stringify. */
export const deepJson: fc.Arbitrary<string> = fc
  .tuple(
    fc.oneof(
      { weight: 2, arbitrary: fc.integer({ min: 60, max: 70 }) },
      { weight: 2, arbitrary: fc.integer({ min: 500, max: 5_000 }) },
      { weight: 2, arbitrary: fc.constant(5_000) },
      { weight: 1, arbitrary: fc.integer({ min: 10_000, max: 30_000 }) },
    ),
    fc.constantFrom<'array' | 'object' | 'mixed'>('array', 'object', 'mixed'),
  )
  .map(([depth, shape]) => deepJsonText(depth, shape));

/** The text of any JSON value. */
export const anyJson: fc.Arbitrary<string> = fc.oneof(
  { weight: 3, arbitrary: fc.jsonValue({ maxDepth: 4 }).map((value) => JSON.stringify(value)) },
  { weight: 2, arbitrary: nastyString.map((value) => JSON.stringify(value)) },
  { weight: 2, arbitrary: deepJson },
  { weight: 1, arbitrary: fc.constantFrom('null', 'true', '-0', '1e400', '[]', '{}', '{"__proto__":{"polluted":1}}', '{"a":1,"a":2}') },
);

type Entries = [string, string][];

/** A JSON object as text; keys may repeat, values are JSON text already. */
export const objectText = (entries: Entries) => `{${entries.map(([key, value]) => `${JSON.stringify(key)}:${value}`).join(',')}}`;

/** Entries, each kept or dropped, sometimes one repeated with another value or a stray key added. */
const entries = (fields: Record<string, fc.Arbitrary<string>>): fc.Arbitrary<Entries> =>
  fc
    .tuple(
      fc.record(fields, { requiredKeys: [] }),
      fc.array(fc.tuple(fc.oneof(fc.constantFrom(...Object.keys(fields)), nastyString), anyJson), { maxLength: 2 }),
    )
    .map(([record, extra]) => [...(Object.entries(record) as Entries), ...extra]);

const usually = (plausible: fc.Arbitrary<string>) => fc.oneof({ weight: 4, arbitrary: plausible }, { weight: 1, arbitrary: anyJson });
const jsonString = (values: fc.Arbitrary<string>) => values.map((value) => JSON.stringify(value));

/** Channels the fuzz sockets are members of, so their client events get past the membership check. */
export const memberChannels = ['private-fuzz', 'presence-fuzz'] as const;

const channel = jsonString(
  fc.oneof(
    { weight: 4, arbitrary: fc.constantFrom(...memberChannels, 'public-fuzz', 'private-other', 'presence-other', 'private-encrypted-fuzz', 'cache-fuzz', '#server-to-user-u1') },
    { weight: 1, arbitrary: fc.constantFrom('c'.repeat(164), `private-${'c'.repeat(157)}`, 'c'.repeat(165)) },
    { weight: 2, arbitrary: nastyString },
  ),
);

/** `data` of a client event: JSON values, deep arrays (the frame that killed the daemon), huge strings near the limits. */
const clientData = fc.oneof(
  { weight: 3, arbitrary: fc.jsonValue({ maxDepth: 4 }).map((value) => JSON.stringify(value)) },
  { weight: 4, arbitrary: deepJson },
  { weight: 2, arbitrary: jsonString(nastyString) },
  { weight: 1, arbitrary: jsonString(deepJson) },
);

const clientEventName = jsonString(
  fc.oneof(
    { weight: 4, arbitrary: fc.constantFrom('client-x', 'client-typing', `client-${'e'.repeat(193)}`, `client-${'e'.repeat(194)}`) },
    { weight: 1, arbitrary: nastyString.map((name) => `client-${name}`) },
  ),
);

/**
 * Mostly a well-formed client event on a channel the socket is a member of, so its data gets
 * past every check before the relay; otherwise any channel, fields missing, repeated or stray.
 */
const clientEvent = fc.oneof(
  {
    weight: 2,
    arbitrary: fc
      .tuple(clientEventName, jsonString(fc.constantFrom(...memberChannels)), clientData)
      .map(([event, channelName, data]) => objectText([['event', event], ['channel', channelName], ['data', data]])),
  },
  {
    weight: 1,
    arbitrary: fc.tuple(clientEventName, entries({ channel: usually(channel), data: clientData })).map(([event, fields]) => objectText([['event', event], ...fields])),
  },
);

/** `auth` values: the right shape with a wrong signature, other shapes, nothing. */
const auth = usually(jsonString(fc.oneof(fc.constantFrom('fuzz-key:0000', 'fuzz-key:', ':', 'other-key:abcd', 'fuzz-key:'.padEnd(80, 'f')), nastyString)));

const channelData = usually(
  jsonString(
    fc.oneof(
      fc.constantFrom('{"user_id":"u1"}', '{"user_id":1}', '{"user_id":""}', '{"user_id":null}', '{}', '[]', 'null', '{"user_id":"u1","user_info":"x"}'),
      fc.tuple(nastyString, anyJson).map(([id, info]) => `{"user_id":${JSON.stringify(id)},"user_info":${info}}`),
      deepJson.map((deep) => `{"user_id":"u1","user_info":${deep}}`),
      deepJson,
      nastyString,
    ),
  ),
);

const userData = usually(
  jsonString(
    fc.oneof(
      fc.constantFrom('{"id":"u1"}', '{"id":1}', '{"id":""}', '{}', 'null', '{"id":"u1","watchlist":["u2"]}'),
      fc.tuple(nastyString, anyJson).map(([id, info]) => `{"id":${JSON.stringify(id)},"user_info":${info}}`),
      deepJson.map((deep) => `{"id":"u1","user_info":${deep}}`),
      deepJson,
      nastyString,
    ),
  ),
);

/** `pusher:*` messages with their `data` of the right and of every wrong shape. */
const pusherEvent = (event: string, data: fc.Arbitrary<string>) =>
  fc.oneof(
    { weight: 4, arbitrary: data.map((value) => objectText([['event', JSON.stringify(event)], ['data', value]])) },
    { weight: 1, arbitrary: anyJson.map((value) => objectText([['event', JSON.stringify(event)], ['data', value]])) },
    { weight: 1, arbitrary: fc.constant(objectText([['event', JSON.stringify(event)]])) },
  );

const subscribe = pusherEvent('pusher:subscribe', entries({ channel, auth, channel_data: channelData }).map(objectText));
const unsubscribe = pusherEvent('pusher:unsubscribe', entries({ channel }).map(objectText));
const signin = pusherEvent('pusher:signin', entries({ auth, user_data: userData }).map(objectText));
const ping = pusherEvent('pusher:ping', fc.oneof(fc.constant('{}'), anyJson));

/** Frames that are no Pusher message at all. */
const notAMessage = fc.oneof(
  nastyString,
  anyJson,
  fc.constantFrom('', '{', '{"event":', '{"event":"pusher:ping"', '{"event":5}', '{"event":null}', '[{"event":"pusher:ping"}]', '{"event":"pusher:ping"} trailing'),
  fc.tuple(fc.oneof(fc.constantFrom('pusher:teleport', 'pusher_internal:subscription_succeeded', 'hello', ''), nastyString), anyJson).map(([event, data]) =>
    objectText([['event', JSON.stringify(event)], ['channel', '"private-fuzz"'], ['data', data]]),
  ),
);

export type HostileFrame = { text: string; binary: boolean } | { bytes: Buffer; binary: boolean };

/** Any frame a client could send: every message type with adversarial fields, junk text, binary frames, invalid UTF-8. */
export const hostileFrame: fc.Arbitrary<HostileFrame> = fc.oneof(
  { weight: 12, arbitrary: clientEvent.map((text) => ({ text, binary: false })) },
  { weight: 6, arbitrary: subscribe.map((text) => ({ text, binary: false })) },
  { weight: 2, arbitrary: unsubscribe.map((text) => ({ text, binary: false })) },
  // A failed sign-in closes the connection (4009), so it is sent less often than it is worth.
  { weight: 2, arbitrary: signin.map((text) => ({ text, binary: false })) },
  { weight: 2, arbitrary: ping.map((text) => ({ text, binary: false })) },
  { weight: 6, arbitrary: notAMessage.map((text) => ({ text, binary: false })) },
  { weight: 2, arbitrary: clientEvent.map((text) => ({ text, binary: true })) },
  // Invalid UTF-8 in a text frame: the connection is failed (1006/1007), a new one takes its place.
  { weight: 1, arbitrary: fc.uint8Array({ minLength: 1, maxLength: 32 }).map((bytes) => ({ bytes: Buffer.from([0xff, ...bytes]), binary: false })) },
);
