import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { mainApp, otherApp, signedFetch, signedQuery, startApi, type ApiFixture } from '../test/support/test-fixture.js';

let api: ApiFixture;
beforeEach(async () => {
  api = await startApi();
});
afterEach(async () => {
  await api.close();
});

const eventBody = JSON.stringify({ name: 'e', data: 'x', channels: ['a'] });

async function expect401(response: Response, reason: string) {
  expect(response.status).toBe(401);
  const body = (await response.json()) as { error: string; code: number };
  expect(body).toEqual({ error: `invalid request signature: ${reason}`, code: 401 });
}

describe('request signatures', () => {
  it('accepts a request signed the way pusher-http-php signs (encoded query, body_md5 on every POST)', async () => {
    await api.subscriber('presence-room', { presence: { user_id: 'u1' } });
    const channels = await signedFetch(api.baseUrl, {
      method: 'GET',
      path: '/apps/app-1/channels',
      params: { filter_by_prefix: 'presence-', info: 'user_count,subscription_count' },
      encode: true,
    });
    expect(channels.status).toBe(200);
    expect(await channels.json()).toEqual({ channels: { 'presence-room': { user_count: 1, subscription_count: 1 } } });

    const url = `${api.baseUrl}/apps/app-1/channels?${signedQuery({ method: 'GET', path: '/apps/app-1/channels', params: { info: 'user_count,subscription_count', filter_by_prefix: 'presence-' }, encode: true })}`;
    expect(url).toContain('info=user_count%2Csubscription_count');

    const terminate = await signedFetch(api.baseUrl, {
      method: 'POST',
      path: '/apps/app-1/users/u1/terminate_connections',
      body: '{}',
      alwaysBodyMd5: true,
      encode: true,
    });
    expect(terminate.status).toBe(200);
    expect(await terminate.json()).toEqual({});
  });

  it('accepts a channel name signed raw but percent-encoded on the wire', async () => {
    await api.subscriber('presence-a@b', { presence: { user_id: 'u1' } });
    const query = signedQuery({ method: 'GET', path: '/apps/app-1/channels/presence-a@b/users' });
    const response = await fetch(`${api.baseUrl}/apps/app-1/channels/presence-a%40b/users?${query}`);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ users: [{ id: 'u1' }] });
  });

  it('accepts body_md5 of an empty body on a POST without body', async () => {
    const response = await signedFetch(api.baseUrl, { method: 'POST', path: '/apps/app-1/users/u1/terminate_connections', alwaysBodyMd5: true });
    expect(response.status).toBe(200);
  });

  it('refuses a request without signature', async () => {
    await expect401(await fetch(`${api.baseUrl}/apps/app-1/connections`), 'auth_signature is missing');
  });

  it('refuses a bad signature and never echoes it or the secret', async () => {
    const query = signedQuery({ method: 'GET', path: '/apps/app-1/connections' }).replace(/auth_signature=[0-9a-f]+/, `auth_signature=${'ab'.repeat(32)}`);
    const response = await fetch(`${api.baseUrl}/apps/app-1/connections?${query}`);
    const text = await response.clone().text();
    expect(text).not.toContain('ab'.repeat(32));
    expect(text).not.toContain(mainApp.secret);
    await expect401(response, 'auth_signature is invalid');
  });

  it('refuses a signature over another path or method', async () => {
    const query = signedQuery({ method: 'GET', path: '/apps/app-1/channels' });
    await expect401(await fetch(`${api.baseUrl}/apps/app-1/connections?${query}`), 'auth_signature is invalid');
    const postQuery = signedQuery({ method: 'POST', path: '/apps/app-1/connections' });
    await expect401(await fetch(`${api.baseUrl}/apps/app-1/connections?${postQuery}`), 'auth_signature is invalid');
  });

  it('refuses a query parameter added after signing', async () => {
    const query = signedQuery({ method: 'GET', path: '/apps/app-1/channels' });
    await expect401(await fetch(`${api.baseUrl}/apps/app-1/channels?${query}&info=subscription_count`), 'auth_signature is invalid');
  });

  it('refuses a timestamp more than 600 s away, either way', async () => {
    const now = Math.floor(Date.now() / 1000);
    for (const timestamp of [now - 601, now + 601]) {
      const response = await signedFetch(api.baseUrl, { method: 'GET', path: '/apps/app-1/connections', timestamp });
      await expect401(response, 'auth_timestamp is more than 600 seconds from the server time');
    }
    const justInside = await signedFetch(api.baseUrl, { method: 'GET', path: '/apps/app-1/connections', timestamp: now - 590 });
    expect(justInside.status).toBe(200);
  });

  it('refuses a body that does not match body_md5, and a body without body_md5', async () => {
    const query = signedQuery({ method: 'POST', path: '/apps/app-1/events', body: eventBody });
    const tampered = await fetch(`${api.baseUrl}/apps/app-1/events?${query}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: eventBody.replace('"x"', '"y"'),
    });
    await expect401(tampered, 'body_md5 does not match the body');

    const unsignedBody = signedQuery({ method: 'POST', path: '/apps/app-1/events' });
    const missing = await fetch(`${api.baseUrl}/apps/app-1/events?${unsignedBody}`, { method: 'POST', body: eventBody });
    await expect401(missing, 'body_md5 is missing');
  });

  it("refuses another app's key, even with that app's valid signature", async () => {
    const response = await signedFetch(api.baseUrl, { method: 'GET', path: '/apps/app-1/connections', app: otherApp });
    await expect401(response, 'auth_key does not match the app');
  });

  it('refuses auth_version other than 1.0', async () => {
    const response = await signedFetch(api.baseUrl, { method: 'GET', path: '/apps/app-1/connections', params: {} });
    expect(response.status).toBe(200);
    const query = signedQuery({ method: 'GET', path: '/apps/app-1/connections' }).replace('auth_version=1.0', 'auth_version=2.0');
    await expect401(await fetch(`${api.baseUrl}/apps/app-1/connections?${query}`), 'auth_version must be 1.0');
  });

  it('answers 404 for an unknown app before looking at credentials', async () => {
    const response = await fetch(`${api.baseUrl}/apps/nope/events`, { method: 'POST', body: eventBody });
    expect(response.status).toBe(404);
    expect(await response.json()).toEqual({ error: 'app "nope" does not exist', code: 404 });
  });

  it('answers 400 for a query with invalid percent-encoding', async () => {
    const query = signedQuery({ method: 'GET', path: '/apps/app-1/channels' });
    const response = await fetch(`${api.baseUrl}/apps/app-1/channels?${query}&filter_by_prefix=%E0%A4%A`);
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({ error: 'the query string has an invalid percent-encoding', code: 400 });
  });
});

describe('bearer authentication', () => {
  const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

  it('accepts the app secret as a bearer token for reads and triggers', async () => {
    const socket = await api.subscriber('a');
    const read = await fetch(`${api.baseUrl}/apps/app-1/connections`, { headers: bearer(mainApp.secret) });
    expect(read.status).toBe(200);
    expect(await read.json()).toEqual({ connections: 1 });
    const trigger = await fetch(`${api.baseUrl}/apps/app-1/events`, {
      method: 'POST',
      headers: { ...bearer(mainApp.secret), 'content-type': 'application/json' },
      body: eventBody,
    });
    expect(trigger.status).toBe(200);
    expect(socket.events('e')).toHaveLength(1);
  });

  it("refuses a wrong bearer token, another app's secret and an empty one, without echoing them", async () => {
    for (const header of [`Bearer wrong`, `Bearer ${otherApp.secret}`, 'Bearer ', `bearer ${mainApp.secret}x`]) {
      const response = await fetch(`${api.baseUrl}/apps/app-1/connections`, { headers: { authorization: header } });
      expect(response.status).toBe(401);
      const body = await response.text();
      expect(JSON.parse(body)).toEqual({ error: 'the bearer token does not match the app secret', code: 401 });
      expect(body).not.toContain('secret-');
    }
  });

  it('accepts the scheme in any case', async () => {
    const response = await fetch(`${api.baseUrl}/apps/app-1/connections`, { headers: { authorization: `bEaReR ${mainApp.secret}` } });
    expect(response.status).toBe(200);
  });
});
