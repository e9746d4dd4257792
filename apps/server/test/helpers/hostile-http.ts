// fast-check generators of hostile HTTP requests to the daemon for the fuzz test: every API route,
// health, metrics and the WebSocket path, with hostile methods, queries, headers and bodies,
// signed (so the request reaches validation) or not.
import fc from 'fast-check';
import type { TestApp } from './apps.js';
import { anyJson, deepJson, nastyString, objectText } from './hostile-frames.js';
import { signedQuery, type SignOptions } from './signed-request.js';

export interface HostileHttpRequest {
  method: string;
  /** Path and query as given to fetch. */
  target: string;
  headers: Record<string, string>;
  body?: string;
  /** Send the body as a stream, so it goes chunked without Content-Length. */
  chunked: boolean;
}

/** Lone surrogates as U+FFFD, as a client's UTF-8 encoder sends them (encodeURIComponent throws on them). */
const wellFormed = (value: string) => value.replace(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, '\uFFFD');

const segment = fc.oneof(
  { weight: 2, arbitrary: fc.constantFrom('private-fuzz', 'presence-fuzz', 'public-fuzz', 'u1', 'private-bystander') },
  { weight: 2, arbitrary: nastyString.map((value) => encodeURIComponent(wellFormed(value))) },
  { weight: 1, arbitrary: fc.constantFrom('%', '%zz', '..', '.', '%2e%2e', '%2F', 'a%00b', '%C0%AF') },
);

const jsonString = (values: fc.Arbitrary<string>) => values.map((value) => JSON.stringify(value));
const usually = (plausible: fc.Arbitrary<string>) => fc.oneof({ weight: 4, arbitrary: plausible }, { weight: 1, arbitrary: anyJson });

const channelJson = usually(jsonString(fc.oneof(fc.constantFrom('private-fuzz', 'presence-fuzz', 'public-fuzz', 'private-bystander', 'c'.repeat(165)), nastyString)));

const eventEntries = fc.record(
  {
    name: usually(jsonString(fc.constantFrom('fuzz-event', 'client-x', 'pusher:x', 'e'.repeat(201)))),
    data: usually(jsonString(fc.oneof(fc.constantFrom('{}', 'hi'), nastyString, deepJson))),
    channel: channelJson,
    channels: usually(fc.array(channelJson, { maxLength: 101 }).map((channels) => `[${channels.join(',')}]`)),
    socket_id: usually(jsonString(fc.constantFrom('1.1', 'x', '1234.5678'))),
    info: usually(jsonString(fc.constantFrom('subscription_count', 'user_count', 'cache', 'bogus'))),
  },
  { requiredKeys: [] },
);

const bodyText: fc.Arbitrary<string> = fc.oneof(
  { weight: 4, arbitrary: eventEntries.map((record) => objectText(Object.entries(record))) },
  { weight: 2, arbitrary: fc.array(eventEntries.map((record) => objectText(Object.entries(record))), { maxLength: 12 }).map((items) => `{"batch":[${items.join(',')}]}`) },
  { weight: 2, arbitrary: anyJson },
  { weight: 1, arbitrary: deepJson.map((deep) => `{"name":"fuzz-event","channel":"private-fuzz","data":${deep}}`) },
  { weight: 1, arbitrary: nastyString },
  // Past the daemon's max_request_size.
  { weight: 1, arbitrary: fc.integer({ min: 100_001, max: 150_000 }).map((size) => `{"name":"e","channel":"private-fuzz","data":"${'x'.repeat(size)}"}`) },
);

/** The methods fetch can send (it refuses CONNECT, TRACE and TRACK), plus made-up ones. */
const method = fc.oneof(
  { weight: 6, arbitrary: fc.constantFrom('GET', 'POST') },
  { weight: 2, arbitrary: fc.constantFrom('PUT', 'DELETE', 'PATCH', 'HEAD', 'OPTIONS') },
  { weight: 1, arbitrary: fc.stringMatching(/^[A-Z]{1,12}$/).filter((name) => !['CONNECT', 'TRACE', 'TRACK'].includes(name)) },
);

/** Printable ASCII without surrounding spaces: what fetch lets through as a header value. */
const headerValue = fc.stringMatching(/^[\x21-\x7e]([\x20-\x7e]{0,40}[\x21-\x7e])?$/);

const headers = (app: TestApp) =>
  fc
    .record(
      {
        'content-type': fc.oneof(fc.constantFrom('application/json', 'text/plain', 'multipart/form-data; boundary=x'), headerValue),
        authorization: fc.oneof(fc.constantFrom(`Bearer ${app.secret}`, 'Bearer wrong', 'Basic YTpi', 'Bearer'), headerValue),
        origin: fc.oneof(fc.constantFrom('https://evil.example', 'null'), headerValue),
        'x-fuzz': fc.oneof(headerValue, fc.integer({ min: 1_000, max: 12_000 }).map((size) => 'h'.repeat(size))),
      },
      { requiredKeys: [] },
    )
    .map((record) => ({ ...record }) as Record<string, string>);

/** Any request to any route of `app` (or of apps that do not exist). */
export function hostileHttpRequest(app: TestApp): fc.Arbitrary<HostileHttpRequest> {
  const appId = fc.oneof({ weight: 6, arbitrary: fc.constant(app.id) }, { weight: 1, arbitrary: fc.oneof(fc.constant('no-such-app'), segment) });
  const path = fc.oneof(
    appId.map((id) => `/apps/${id}/events`),
    appId.map((id) => `/apps/${id}/batch_events`),
    appId.map((id) => `/apps/${id}/channels`),
    fc.tuple(appId, segment).map(([id, name]) => `/apps/${id}/channels/${name}`),
    fc.tuple(appId, segment).map(([id, name]) => `/apps/${id}/channels/${name}/users`),
    fc.tuple(appId, segment).map(([id, user]) => `/apps/${id}/users/${user}/terminate_connections`),
    appId.map((id) => `/apps/${id}/connections`),
    fc.constantFrom('/', '/up', '/pusher/health', '/metrics', `/app/${app.key}`, '/app/no-such-key', '/apps', `/apps/${app.id}`, `/apps/${app.id}/events/x`),
    fc.array(segment, { maxLength: 5 }).map((segments) => `/${segments.join('/')}`),
  );
  const params = fc.array(fc.tuple(fc.constantFrom('info', 'filter_by_prefix', 'auth_key', 'auth_signature', 'auth_timestamp', 'body_md5'), nastyString.map(wellFormed)), { maxLength: 3 });
  return fc
    .record({
      method,
      path,
      signed: fc.oneof({ weight: 3, arbitrary: fc.constant(true) }, { weight: 1, arbitrary: fc.constant(false) }),
      params,
      rawQuery: nastyString.map((raw) => raw.replace(/#/g, '%23')),
      headers: headers(app),
      body: fc.option(bodyText, { freq: 4 }),
      chunked: fc.oneof({ weight: 5, arbitrary: fc.constant(false) }, { weight: 1, arbitrary: fc.constant(true) }),
    })
    .map((parts) => {
      const hasBody = parts.body !== null && parts.method !== 'GET' && parts.method !== 'HEAD';
      const body = hasBody ? wellFormed(parts.body ?? '') : undefined;
      const query = parts.signed
        ? signedQuery(app, { method: parts.method as SignOptions['method'], path: parts.path, params: Object.fromEntries(parts.params), ...(body !== undefined ? { body } : {}) })
        : parts.rawQuery;
      return {
        method: parts.method,
        target: `${parts.path}${query === '' ? '' : `?${query}`}`,
        headers: parts.headers,
        ...(body !== undefined ? { body } : {}),
        chunked: parts.chunked && body !== undefined,
      };
    });
}

/** Bytes of an HTTP request that no client library would send: broken request lines, huge or duplicated headers, lying lengths. */
export const rawHttpGarbage: fc.Arbitrary<Buffer> = fc
  .oneof(
    fc.constantFrom(
      'GET / HTTP/1.1\r\n\r\n',
      'GET /up HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\nContent-Length: 7\r\n\r\nhello',
      'POST /apps/fuzz-id/events HTTP/1.1\r\nHost: x\r\nContent-Length: -1\r\n\r\n',
      'POST /apps/fuzz-id/events HTTP/1.1\r\nHost: x\r\nContent-Length: 100000000\r\n\r\n{"name"',
      'POST /apps/fuzz-id/events HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n',
      'POST /apps/fuzz-id/events HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\nContent-Length: 3\r\n\r\n0\r\n\r\n',
      'GET /\u0000 HTTP/1.1\r\nHost: x\r\n\r\n',
      'GET http://evil.example/up HTTP/1.1\r\nHost: x\r\n\r\n',
      'GET /up HTTP/9.9\r\nHost: x\r\n\r\n',
      'GET /up\r\n\r\n',
      '\r\n\r\n\r\n',
      'GET /app/fuzz-key HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Version: 13\r\n\r\n',
      'GET /app/fuzz-key HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: x\r\nSec-WebSocket-Version: 99\r\n\r\n',
    ),
    fc.tuple(fc.constantFrom('GET', 'POST', 'G\u0000T', ''), nastyString, nastyString).map(([verb, path, header]) => `${verb} /${path} HTTP/1.1\r\nHost: x\r\nX-Fuzz: ${header}\r\n\r\n`),
    fc.integer({ min: 5_000, max: 70_000 }).map((size) => `GET /up HTTP/1.1\r\nHost: x\r\nX-Huge: ${'h'.repeat(size)}\r\n\r\n`),
    fc.integer({ min: 50, max: 500 }).map((count) => `GET /up HTTP/1.1\r\nHost: x\r\n${'X-Many: 1\r\n'.repeat(count)}\r\n`),
  )
  .map((text) => Buffer.from(text, 'utf8'));
