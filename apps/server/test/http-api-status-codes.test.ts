import { beforeAll, describe, expect, it } from 'vitest';
import { daemonConfig, testApp } from './helpers/apps.js';
import { backend } from './helpers/clients.js';
import { startDaemon, type RunningDaemon } from './helpers/daemon.js';
import { connectRaw } from './helpers/raw-socket.js';
import { signedFetch, signedQuery } from './helpers/signed-request.js';

const app = testApp('status');
const cors = testApp('cors', { allowed_origins: ['https://app.example.com'] });
let daemon: RunningDaemon;
let events: string;

beforeAll(async () => {
  daemon = await startDaemon(daemonConfig([app, cors]));
  events = `/apps/${app.id}/events`;
});

/** Asserts the status and the `{error, code}` JSON body every error carries. */
async function expectError(response: Response, status: number, message?: RegExp): Promise<void> {
  expect(response.status).toBe(status);
  expect(response.headers.get('content-type')).toMatch(/^application\/json/);
  const body = (await response.json()) as { error: unknown; code: unknown };
  expect(body).toEqual({ error: expect.any(String), code: status });
  if (message) expect(body.error).toMatch(message);
}

const post = (body: string, extra: { params?: Record<string, string>; timestamp?: number; bodyMd5?: string; secret?: string } = {}) =>
  signedFetch(daemon.httpUrl, app, { method: 'POST', path: events, body, ...extra });

describe('HTTP API status codes with raw fetch', () => {
  it('200 with a JSON body for a correctly signed request', async () => {
    const response = await post(JSON.stringify({ name: 'e', data: '{}', channel: 'news' }));
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    expect(await response.json()).toEqual({});
  });

  describe('400', () => {
    it.each([
      ['malformed JSON', '{"name": "e", '],
      ['a JSON array body', '[]'],
      ['data that is not a string', JSON.stringify({ name: 'e', data: { a: 1 }, channel: 'news' })],
      ['a missing name', JSON.stringify({ data: '{}', channel: 'news' })],
      ['no channel at all', JSON.stringify({ name: 'e', data: '{}' })],
      ['both channel and channels', JSON.stringify({ name: 'e', data: '{}', channel: 'a', channels: ['b'] })],
      ['channels that is not an array', JSON.stringify({ name: 'e', data: '{}', channels: 'news' })],
      ['an invalid channel name', JSON.stringify({ name: 'e', data: '{}', channel: 'bad channel' })],
      ['an invalid socket_id', JSON.stringify({ name: 'e', data: '{}', channel: 'news', socket_id: 'abc' })],
      ['an unknown info attribute', JSON.stringify({ name: 'e', data: '{}', channel: 'news', info: 'bogus' })],
    ])('for %s', async (_label, body) => {
      await expectError(await post(body), 400);
    });

    it('names the invalid field', async () => {
      await expectError(await post(JSON.stringify({ name: 'e', data: 5, channel: 'news' })), 400, /"data"/);
    });

    it('for a batch that is not an array', async () => {
      const response = await signedFetch(daemon.httpUrl, app, { method: 'POST', path: `/apps/${app.id}/batch_events`, body: '{"batch":{}}' });
      await expectError(response, 400);
    });

    it('for an invalid channel name in the path', async () => {
      const response = await signedFetch(daemon.httpUrl, app, { method: 'GET', path: `/apps/${app.id}/channels/bad*name` });
      await expectError(response, 400);
    });

    it('for an unknown info attribute on GET /channels', async () => {
      const response = await signedFetch(daemon.httpUrl, app, { method: 'GET', path: `/apps/${app.id}/channels`, params: { info: 'nope' } });
      await expectError(response, 400);
    });
  });

  describe('401', () => {
    const body = JSON.stringify({ name: 'e', data: '{}', channel: 'news' });

    it('without any credentials', async () => {
      await expectError(await fetch(`${daemon.httpUrl}/apps/${app.id}/channels`), 401);
    });

    it('with a signature made with the wrong secret', async () => {
      await expectError(await post(body, { secret: 'wrong' }), 401, /signature/);
    });

    it('with another app key', async () => {
      const query = signedQuery({ ...app, key: cors.key }, { method: 'GET', path: `/apps/${app.id}/channels` });
      await expectError(await fetch(`${daemon.httpUrl}/apps/${app.id}/channels?${query}`), 401);
    });

    it('with an auth_timestamp outside the 600 s window, and 200 inside it', async () => {
      const now = Math.floor(Date.now() / 1000);
      await expectError(await post(body, { timestamp: now - 601 }), 401, /auth_timestamp/);
      await expectError(await post(body, { timestamp: now + 700 }), 401, /auth_timestamp/);
      expect((await post(body, { timestamp: now - 300 })).status).toBe(200);
    });

    it('with a body_md5 that does not match the body', async () => {
      await expectError(await post(body, { bodyMd5: '0'.repeat(32) }), 401, /body_md5/);
    });

    it('when the body was changed after signing', async () => {
      const query = signedQuery(app, { method: 'POST', path: events, body });
      const response = await fetch(`${daemon.httpUrl}${events}?${query}`, { method: 'POST', body: body.replace('news', 'other'), headers: { 'content-type': 'application/json' } });
      await expectError(response, 401);
    });

    it('when a signed query parameter was changed', async () => {
      const query = signedQuery(app, { method: 'GET', path: `/apps/${app.id}/channels`, params: { filter_by_prefix: 'a' } });
      await expectError(await fetch(`${daemon.httpUrl}/apps/${app.id}/channels?${query.replace('filter_by_prefix=a', 'filter_by_prefix=b')}`), 401);
    });

    it('with a wrong Bearer token, and 200 with the app secret as Bearer', async () => {
      const bearer = (token: string) =>
        fetch(`${daemon.httpUrl}${events}`, { method: 'POST', body, headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' } });
      await expectError(await bearer('not-the-secret'), 401, /bearer/i);
      const ok = await bearer(app.secret);
      expect(ok.status).toBe(200);
      expect(await ok.json()).toEqual({});
    });

    it('never echoes the secret in an error', async () => {
      const response = await fetch(`${daemon.httpUrl}${events}`, { method: 'POST', body, headers: { authorization: 'Bearer x' } });
      expect(await response.text()).not.toContain(app.secret);
    });
  });

  it('accepts Bearer auth on GET routes', async () => {
    await connectRaw(daemon, app.key);
    const response = await fetch(`${daemon.httpUrl}/apps/${app.id}/connections`, { headers: { authorization: `Bearer ${app.secret}` } });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ connections: expect.any(Number) });
  });

  it('verifies a percent-encoded query (PHP SDK style) as well as a raw one (Node SDK style)', async () => {
    // signedQuery signs the decoded values and sends them percent-encoded; the SDK sends them raw.
    const params = { filter_by_prefix: 'presence-a@b,c', info: 'user_count' };
    const encoded = await signedFetch(daemon.httpUrl, app, { method: 'GET', path: `/apps/${app.id}/channels`, params });
    expect(encoded.status).toBe(200);
    expect(await encoded.json()).toEqual({ channels: {} });
    const raw = await backend(daemon, app).get({ path: '/channels', params });
    expect(raw.status).toBe(200);
  });

  describe('404', () => {
    it('for an unknown app id, even without credentials', async () => {
      await expectError(await fetch(`${daemon.httpUrl}/apps/no-such-app/channels`), 404);
      await expectError(await signedFetch(daemon.httpUrl, app, { method: 'POST', path: '/apps/no-such-app/events', body: '{}' }), 404);
    });

    it('for an unknown path', async () => {
      await expectError(await fetch(`${daemon.httpUrl}/nope`), 404);
      await expectError(await fetch(`${daemon.httpUrl}/apps/${app.id}/unknown`), 404);
    });
  });

  describe('405', () => {
    it.each([
      ['GET', `/events`],
      ['PUT', `/events`],
      ['POST', `/channels`],
      ['DELETE', `/channels/news`],
      ['GET', `/batch_events`],
      ['GET', `/users/u1/terminate_connections`],
    ])('for %s %s, with an Allow header', async (method, path) => {
      const response = await fetch(`${daemon.httpUrl}/apps/${app.id}${path}`, { method });
      await expectError(response, 405);
      expect(response.headers.get('allow')).toMatch(/OPTIONS/);
    });
  });

  describe('413', () => {
    it('for a body over max_request_size (262,144 bytes by default)', async () => {
      const body = JSON.stringify({ name: 'e', data: 'x'.repeat(270_000), channel: 'news' });
      await expectError(await post(body), 413);
    });

    it('for a body over max_request_size even with a valid Bearer token and without Content-Length', async () => {
      const chunks = new ReadableStream<Uint8Array>({
        start(controller) {
          for (let i = 0; i < 12; i++) controller.enqueue(new TextEncoder().encode('x'.repeat(25_000)));
          controller.close();
        },
      });
      const response = await fetch(`${daemon.httpUrl}${events}`, {
        method: 'POST',
        body: chunks,
        headers: { authorization: `Bearer ${app.secret}` },
        duplex: 'half',
      } as RequestInit);
      await expectError(response, 413);
    });
  });

  describe('CORS', () => {
    it('answers a preflight for an app allowing every origin', async () => {
      const response = await fetch(`${daemon.httpUrl}${events}`, {
        method: 'OPTIONS',
        headers: { origin: 'https://anything.test', 'access-control-request-method': 'POST' },
      });
      expect(response.status).toBe(204);
      expect(response.headers.get('access-control-allow-origin')).toBe('*');
      expect(response.headers.get('access-control-allow-methods')).toMatch(/POST/);
    });

    it('echoes an allowed origin and withholds the header from another', async () => {
      const preflight = (origin: string) =>
        fetch(`${daemon.httpUrl}/apps/${cors.id}/events`, { method: 'OPTIONS', headers: { origin, 'access-control-request-method': 'POST' } });
      expect((await preflight('https://app.example.com')).headers.get('access-control-allow-origin')).toBe('https://app.example.com');
      expect((await preflight('https://evil.test')).headers.get('access-control-allow-origin')).toBeNull();
    });

    it('adds the allowed origin to real answers, errors included', async () => {
      const response = await fetch(`${daemon.httpUrl}/apps/${cors.id}/channels`, { headers: { origin: 'https://app.example.com' } });
      expect(response.status).toBe(401);
      expect(response.headers.get('access-control-allow-origin')).toBe('https://app.example.com');
    });
  });
});
