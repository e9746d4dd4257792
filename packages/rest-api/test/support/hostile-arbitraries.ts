// fast-check generators of hostile HTTP API requests, for the property tests.
import fc from 'fast-check';
import type { App } from '@org/protocol';
import type { HostileRequest } from './property-harness.js';
import { mainApp, otherApp, signedQuery } from './test-fixture.js';

/** Strings that have broken parsers before: encodings, separators, surrogates, prototype keys, Pusher prefixes. */
const specials = [
  '', ' ', '\u0000', '\t', '\n', '\r\n', '%', '%%', '%zz', '%00', '%2F', '%2e%2e', '%E2%82', '%C0%AF', '%ZZ%',
  '..', '.', '/', '\\', '+', '&', '=', '#', '?', ';', ',', '"', "'", '<script>', '${x}',
  '\uD800', '\uDFFF', '\uFEFF', '\u202E', '\u2028', 'é', '😀', 'null', 'true', '0', '-1', '1e999', 'NaN',
  '__proto__', 'constructor', 'prototype', 'toString', 'hasOwnProperty',
  'private-', 'presence-', 'private-encrypted-', 'cache-', 'private-cache-', '#server-to-user-member-1',
  'a', 'private-a', 'presence-a', 'cache-a', 'member-1', '1234.5678', 'app-1', 'app-2',
  'subscription_count', 'user_count', 'cache', 'subscription_count,user_count', 'subscription_count,,bogus',
];

/** One character repeated up to past the default request and message limits. */
const hugeString = fc
  .tuple(fc.constantFrom('x', 'é', '😀', '\u0000', '%', '\\', '"', '['), fc.integer({ min: 100, max: 12_000 }))
  .map(([unit, count]) => unit.repeat(count));

const nastyString: fc.Arbitrary<string> = fc.oneof(
  { weight: 3, arbitrary: fc.string({ unit: 'binary', maxLength: 30 }) },
  { weight: 2, arbitrary: fc.string({ unit: 'grapheme', maxLength: 30 }) },
  { weight: 3, arbitrary: fc.constantFrom(...specials) },
  { weight: 1, arbitrary: fc.array(fc.constantFrom(...specials), { maxLength: 6 }).map((parts) => parts.join('')) },
  { weight: 1, arbitrary: hugeString },
);

/** JSON nested `depth` levels deep, built as text (a value that deep cannot be JSON.stringify-ed). */
function deepJsonText(depth: number, shape: 'array' | 'object' | 'mixed'): string {
  if (shape === 'array') return `${'['.repeat(depth)}${']'.repeat(depth)}`;
  if (shape === 'object') return `${'{"a":'.repeat(depth - 1)}{}${'}'.repeat(depth - 1)}`;
  let open = '';
  let close = '';
  for (let level = 1; level < depth; level++) {
    if (level % 2 === 0) {
      open += '[1,';
      close = `]${close}`;
    } else {
      open += '{"k":';
      close = `}${close}`;
    }
  }
  return `${open}null${close}`;
}

/** Depths around the default bound of 64 and far past it (5,000 levels overflowed JSON.stringify). */
const depth = fc.oneof(fc.integer({ min: 1, max: 8 }), fc.integer({ min: 60, max: 70 }), fc.integer({ min: 100, max: 5_000 }), fc.constant(5_000));
const deepJson: fc.Arbitrary<string> = fc.tuple(depth, fc.constantFrom('array', 'object', 'mixed') as fc.Arbitrary<'array' | 'object' | 'mixed'>).map(([levels, shape]) => deepJsonText(levels, shape));

/** The text of any JSON value a field could hold instead of what it should. */
const wrongJson: fc.Arbitrary<string> = fc.oneof(
  fc.jsonValue({ maxDepth: 3 }).map((value) => JSON.stringify(value)),
  nastyString.map((value) => JSON.stringify(value)),
  deepJson,
  fc.constantFrom('null', 'true', '0', '-0', '1e400', '[]', '{}', '[""]', '{"__proto__":{"polluted":1}}'),
);

/** Usually the plausible text, sometimes anything. */
const field = (plausible: fc.Arbitrary<string>) => fc.oneof({ weight: 5, arbitrary: plausible }, { weight: 1, arbitrary: wrongJson });

const channelJson = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom('a', 'b', 'private-a', 'presence-a', 'cache-a', '#server-to-user-member-1', 'private-encrypted-a', 'c'.repeat(164), 'c'.repeat(165)) },
  { weight: 1, arbitrary: nastyString },
).map((channel) => JSON.stringify(channel));

const dataJson = fc.oneof(
  fc.constantFrom('{}', 'hi', '', '{"message":"hello"}'),
  nastyString,
  // Deep JSON inside the string, as a client would relay it: the engine passes strings through.
  deepJson,
  // Around app-1's 10 kB and app-2's 100-byte message limit.
  fc.integer({ min: 9_990, max: 10_010 }).map((size) => 'x'.repeat(size)),
  fc.integer({ min: 95, max: 105 }).map((size) => 'x'.repeat(size)),
).map((data) => JSON.stringify(data));

const eventFields = {
  name: field(fc.constantFrom('e', 'my-event', 'client-x', 'pusher:x', 'pusher_internal:x', 'n'.repeat(200), 'n'.repeat(201), '').map((name) => JSON.stringify(name))),
  data: field(dataJson),
  channel: field(channelJson),
  channels: field(fc.array(channelJson, { maxLength: 101 }).map((channels) => `[${channels.join(',')}]`)),
  socket_id: field(fc.constantFrom('1.1', '1234.5678', 'x', '1.', '.1', '').map((socketId) => JSON.stringify(socketId))),
  info: field(fc.constantFrom('subscription_count', 'user_count', 'subscription_count,user_count,cache', 'bogus', '').map((info) => JSON.stringify(info))),
};

type Entries = [string, string][];

/** A JSON object as text from its entries: keys may repeat, values are already JSON text. */
const objectText = (entries: Entries) => `{${entries.map(([key, value]) => `${JSON.stringify(key)}:${value}`).join(',')}}`;

/** Entries of an event, sometimes with an unknown key or a key given twice. */
const eventEntries = (withChannel: 'channel' | 'either'): fc.Arbitrary<Entries> =>
  fc
    .tuple(
      fc.record(
        withChannel === 'channel'
          ? { name: eventFields.name, data: eventFields.data, channel: eventFields.channel, socket_id: eventFields.socket_id, info: eventFields.info }
          : eventFields,
        { requiredKeys: [] },
      ),
      fc.array(fc.tuple(fc.oneof(fc.constantFrom('name', 'data', 'channel', 'channels'), nastyString), wrongJson), { maxLength: 2 }),
    )
    .map(([record, extra]) => [...(Object.entries(record) as Entries), ...extra]);

/** An event body: mostly a plausible one-of-`channel`-or-`channels` trigger. */
const eventBodyText: fc.Arbitrary<string> = fc.oneof(
  { weight: 3, arbitrary: fc.tuple(eventFields.name, eventFields.data, eventFields.channel).map(([name, data, channel]) => objectText([['name', name], ['data', data], ['channel', channel]])) },
  { weight: 3, arbitrary: eventEntries('either').map(objectText) },
);

const batchBodyText: fc.Arbitrary<string> = fc.oneof(
  { weight: 4, arbitrary: fc.array(eventEntries('channel').map(objectText), { maxLength: 12 }).map((items) => objectText([['batch', `[${items.join(',')}]`]])) },
  { weight: 1, arbitrary: wrongJson.map((batch) => objectText([['batch', batch]])) },
);

/** Bodies that are no event at all: not JSON, not an object, empty, deep at the top. */
const junkBodyText: fc.Arbitrary<string> = fc.oneof(
  nastyString,
  wrongJson,
  deepJson,
  fc.constantFrom('', '{', '{"name":"e"', '{}', '[]', 'null', '"x"', '{"batch":[]}', '{"batch":{}}', '\uFEFF{}', '{} {}', '{"name":"e",}'),
);

const utf8 = new TextEncoder();

const hostileBody: fc.Arbitrary<Uint8Array> = fc.oneof(
  { weight: 3, arbitrary: eventBodyText.map((text) => utf8.encode(text)) },
  { weight: 2, arbitrary: batchBodyText.map((text) => utf8.encode(text)) },
  { weight: 2, arbitrary: junkBodyText.map((text) => utf8.encode(text)) },
  // Raw bytes: invalid UTF-8, NUL, a BOM.
  { weight: 1, arbitrary: fc.uint8Array({ maxLength: 64 }) },
);

/** Lone surrogates as U+FFFD (what a client's UTF-8 encoder sends); pairs such as emoji stay. */
const wellFormed = (value: string) => value.replace(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, '\uFFFD');

/** A path segment as sent: percent-encoded, raw (only `?` and `#` encoded, as they would end the path), or plausible. */
const segment: fc.Arbitrary<string> = fc.oneof(
  { weight: 2, arbitrary: fc.constantFrom('a', 'private-a', 'presence-a', 'cache-a', 'member-1', 'presence-%61', '%70resence-a') },
  { weight: 2, arbitrary: nastyString.map((value) => encodeURIComponent(wellFormed(value))) },
  { weight: 2, arbitrary: nastyString.map((value) => value.replace(/[?#]/g, (char) => encodeURIComponent(char))) },
);

const appId = fc.oneof({ weight: 6, arbitrary: fc.constantFrom('app-1', 'app-2') }, { weight: 1, arbitrary: fc.constantFrom('app-3', 'APP-1', '%61pp-1', 'app-1%00') }, { weight: 1, arbitrary: segment });

/** The methods a client can send (`CONNECT`, `TRACE` and `TRACK` never reach an app), plus made-up ones. */
const hostileMethod: fc.Arbitrary<string> = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom('GET', 'POST') },
  { weight: 3, arbitrary: fc.constantFrom('PUT', 'DELETE', 'PATCH', 'HEAD', 'OPTIONS') },
  { weight: 1, arbitrary: fc.stringMatching(/^[A-Z]{1,12}$/).filter((method) => !['CONNECT', 'TRACE', 'TRACK'].includes(method)) },
);

/** Mostly the route's own method, so most requests get past routing; sometimes any other. */
const methodFor = (method: 'GET' | 'POST') => fc.oneof({ weight: 4, arbitrary: fc.constant(method) }, { weight: 1, arbitrary: hostileMethod });
const target = (method: 'GET' | 'POST', path: fc.Arbitrary<string>) => fc.record({ method: methodFor(method), path });

/** A method and path: every route of the API with hostile parameters, the paths hosts serve in front of it (health, metrics: 404s here), and unknown paths. */
const hostileTarget: fc.Arbitrary<{ method: string; path: string }> = fc.oneof(
  target('POST', appId.map((id) => `/apps/${id}/events`)),
  target('POST', appId.map((id) => `/apps/${id}/batch_events`)),
  target('GET', appId.map((id) => `/apps/${id}/channels`)),
  target('GET', fc.tuple(appId, segment).map(([id, channel]) => `/apps/${id}/channels/${channel}`)),
  target('GET', fc.tuple(appId, segment).map(([id, channel]) => `/apps/${id}/channels/${channel}/users`)),
  target('POST', fc.tuple(appId, segment).map(([id, user]) => `/apps/${id}/users/${user}/terminate_connections`)),
  target('GET', appId.map((id) => `/apps/${id}/connections`)),
  fc.record({
    method: hostileMethod,
    path: fc.oneof(
      fc.constantFrom(
        '/', '/up', '/pusher/health', '/metrics', '/apps', '/apps/', '/apps/app-1', '/apps/app-1/', '/apps/app-1/events/',
        '/apps/app-1/events/extra', '/apps/app-1/./events', '/apps/app-1/../app-1/events', '//apps/app-1/events',
        '/apps//events', '/APPS/app-1/events', '/apps/app-1/%65vents', '/apps/app-1/channels/a/users/x',
      ),
      fc.array(segment, { maxLength: 6 }).map((segments) => `/${segments.join('/')}`),
    ),
  }),
);

const queryKey = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom('auth_key', 'auth_timestamp', 'auth_version', 'auth_signature', 'body_md5', 'info', 'filter_by_prefix') },
  { weight: 1, arbitrary: nastyString },
);

/** Encodes a query component, or sends it raw (without `&`, `=` and `#`, which would change the structure). */
const component = (value: string, encode: boolean) =>
  encode ? encodeURIComponent(wellFormed(value)) : value.replace(/[&=#]/g, (char) => encodeURIComponent(char));

/** A query string that is not signed: missing, repeated, huge, raw or badly encoded auth parameters. */
const unsignedQuery: fc.Arbitrary<string> = fc.oneof(
  fc.array(fc.tuple(queryKey, nastyString, fc.boolean()), { maxLength: 40 }).map((pairs) =>
    pairs.map(([key, value, encode]) => `${component(key, encode)}=${component(value, encode)}`).join('&'),
  ),
  nastyString.map((raw) => raw.replace(/#/g, '%23')),
);

interface SignedParts {
  /** Signs as this app; `path` signs as the app the path names (app-2, else app-1). */
  app: App | 'path';
  /** Extra parameters, signed (they may override the auth ones). */
  params: readonly (readonly [string, string])[];
  encode: boolean;
  /** Seconds added to the timestamp: mostly 0, sometimes outside the ±600 s window. */
  skew: number;
  /** Appended after signing: repeated or extra auth parameters. */
  tail: string;
}

const signedParts: fc.Arbitrary<SignedParts> = fc.record({
  app: fc.oneof({ weight: 6, arbitrary: fc.constant('path' as const) }, { weight: 1, arbitrary: fc.constantFrom(mainApp, otherApp) }),
  params: fc.oneof(
    { weight: 3, arbitrary: fc.constant<[string, string][]>([]) },
    { weight: 3, arbitrary: fc.array(fc.tuple(fc.constantFrom('info', 'filter_by_prefix'), fc.oneof(fc.constantFrom(...specials), nastyString)), { maxLength: 2 }) },
    { weight: 1, arbitrary: fc.array(fc.tuple(queryKey, nastyString), { maxLength: 3 }) },
  ),
  encode: fc.oneof({ weight: 3, arbitrary: fc.constant(true) }, { weight: 1, arbitrary: fc.constant(false) }),
  skew: fc.oneof({ weight: 8, arbitrary: fc.constant(0) }, { weight: 1, arbitrary: fc.integer({ min: -2_000, max: 2_000 }) }),
  tail: fc.oneof(
    { weight: 8, arbitrary: fc.constant('') },
    { weight: 1, arbitrary: fc.constantFrom('&auth_signature=00', '&auth_key=key-2', '&auth_timestamp=1', '&body_md5=x', '&auth_version=2', '&', '&&', '&=', '&info=cache') },
  ),
});

/** The query of a request signed with the test fixture's signer, over the exact path, method and body. */
function signedTarget(parts: SignedParts, method: string, path: string, body: Uint8Array): string {
  const query = signedQuery({
    method: method as 'GET',
    path,
    // A lone surrogate cannot travel in a URL (encodeURIComponent throws); clients send U+FFFD.
    params: Object.fromEntries(parts.params.map(([key, value]) => [wellFormed(key), wellFormed(value)])),
    body,
    app: parts.app !== 'path' ? parts.app : path.startsWith(`/apps/${otherApp.id}/`) ? otherApp : mainApp,
    timestamp: Math.floor(Date.now() / 1000) + parts.skew,
    encode: parts.encode,
  });
  // Raw (unencoded) values may hold `#`, which would end the target.
  return `${query}${parts.tail}`.replace(/#/g, '%23');
}

/** Header values a client can send (printable ASCII, no surrounding spaces). */
const headerValue = fc.stringMatching(/^[\x21-\x7e]([\x20-\x7e]{0,40}[\x21-\x7e])?$/);

const hostileHeaders: fc.Arbitrary<Record<string, string>> = fc
  .record(
    {
      'content-type': fc.oneof(fc.constantFrom('application/json', 'text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x', 'application/json; charset=latin1'), headerValue),
      authorization: fc.oneof(
        fc.constantFrom('Bearer secret-1', 'Bearer secret-2', 'bearer  secret-1', 'Bearer wrong', 'Bearer', 'Bearer secret-1 secret-1', 'Basic YTpi', 'Bearer\tsecret-1'),
        headerValue,
      ),
      origin: fc.oneof(fc.constantFrom('https://allowed.example', 'https://evil.example', 'null'), headerValue),
    },
    { requiredKeys: [] },
  )
  .map((headers) => ({ ...headers }));

/** How a request authenticates: a correct signature, the app secret as a bearer token, or neither. */
type Credentials = { kind: 'signed'; parts: SignedParts } | { kind: 'unsigned'; query: string };

const credentials: fc.Arbitrary<Credentials> = fc.oneof(
  { weight: 3, arbitrary: signedParts.map((parts) => ({ kind: 'signed' as const, parts })) },
  { weight: 2, arbitrary: unsignedQuery.map((query) => ({ kind: 'unsigned' as const, query })) },
);

/** Assembles a request; signed requests are signed over the final method, path and body. */
function buildRequest(method: string, path: string, auth: Credentials, headers: Record<string, string>, body: Uint8Array): HostileRequest {
  const query = auth.kind === 'signed' ? signedTarget(auth.parts, method, path, body) : auth.query;
  return readable({ method, path, query, headers, body });
}

const lenientUtf8 = new TextDecoder();

/** Counterexamples print the body as text, with long runs of one character shortened, instead of a byte list. */
function readable(request: HostileRequest): HostileRequest {
  const describe = () => {
    const text = lenientUtf8.decode(request.body).replace(/(.)\1{19,}/gsu, (run, char: string) => `${char}…×${[...run].length}`);
    return `${request.method} ${request.path}${request.query === '' ? '' : `?${request.query}`} ${JSON.stringify(request.headers)} body(${request.body.byteLength} bytes): ${JSON.stringify(text)}`;
  };
  return Object.assign(request, { [fc.toStringMethod]: describe });
}

/** Any request to any route. */
export const hostileRequest: fc.Arbitrary<HostileRequest> = fc
  .tuple(hostileTarget, credentials, hostileHeaders, fc.oneof(fc.constant(new Uint8Array(0)), hostileBody))
  .map(([{ method, path }, auth, headers, body]) => buildRequest(method, path, auth, headers, body));

/** A trigger or batch POST to app-1 or app-2 that passes authentication (signature or bearer), so its body reaches validation. */
export const authenticatedTrigger: fc.Arbitrary<HostileRequest> = fc
  .tuple(
    fc.constantFrom(mainApp, otherApp),
    fc.boolean(),
    fc.oneof({ weight: 3, arbitrary: eventBodyText }, { weight: 2, arbitrary: batchBodyText }, { weight: 1, arbitrary: junkBodyText }),
    fc.boolean(),
  )
  .map(([app, batch, text, bearer]) => {
    const path = `/apps/${app.id}/${batch ? 'batch_events' : 'events'}`;
    const body = utf8.encode(text);
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    if (bearer) {
      headers['authorization'] = `Bearer ${app.secret}`;
      return readable({ method: 'POST', path, query: '', headers, body });
    }
    return readable({ method: 'POST', path, query: signedTarget({ app, params: [], encode: true, skew: 0, tail: '' }, 'POST', path, body), headers, body });
  });
