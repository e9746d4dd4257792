import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { settle, signedFetch, startApi, type ApiFixture } from '../test/support/test-fixture.js';

let api: ApiFixture;
beforeEach(async () => {
  api = await startApi();
});
afterEach(async () => {
  await api.close();
});

async function getJson(path: string, params?: Record<string, string>): Promise<unknown> {
  const response = await api.pusher().get({ path, ...(params ? { params } : {}) });
  expect(response.status).toBe(200);
  return response.json();
}

async function expect400(path: string, params: Record<string, string>, message: string) {
  const response = await signedFetch(api.baseUrl, { method: 'GET', path: `/apps/app-1${path}`, params });
  expect(response.status).toBe(400);
  const body = (await response.json()) as { error: string; code: number };
  expect(body.code).toBe(400);
  expect(body.error).toContain(message);
}

describe('GET /apps/:appId/channels', () => {
  it('lists only occupied channels, with {} per channel when no info is asked', async () => {
    await api.subscriber('news');
    await api.subscriber('private-a');
    const gone = await api.subscriber('left');
    gone.receive({ event: 'pusher:unsubscribe', data: { channel: 'left' } });
    await settle();
    expect(await getJson('/channels')).toEqual({ channels: { news: {}, 'private-a': {} } });
  });

  it('filters by prefix and reports subscription_count and user_count', async () => {
    await api.subscriber('presence-room', { presence: { user_id: 'u1' } });
    await api.subscriber('presence-room', { presence: { user_id: 'u1' } });
    await api.subscriber('presence-room', { presence: { user_id: 'u2' } });
    await api.subscriber('news');
    expect(await getJson('/channels', { filter_by_prefix: 'presence-', info: 'user_count,subscription_count' })).toEqual({
      channels: { 'presence-room': { user_count: 2, subscription_count: 3 } },
    });
    expect(await getJson('/channels', { info: 'subscription_count' })).toEqual({
      channels: { 'presence-room': { subscription_count: 3 }, news: { subscription_count: 1 } },
    });
  });

  it('answers 400 for info=user_count without a presence- prefix, and for unknown info', async () => {
    await expect400('/channels', { info: 'user_count' }, 'info=user_count needs filter_by_prefix=presence-');
    await expect400('/channels', { filter_by_prefix: 'private-', info: 'user_count' }, 'needs filter_by_prefix=presence-');
    await expect400('/channels', { info: 'cache' }, '"info" has unknown attribute "cache"');
  });
});

describe('GET /apps/:appId/channels/:channel', () => {
  it('reports occupied, subscription_count and user_count', async () => {
    await api.subscriber('news');
    await api.subscriber('news');
    await api.subscriber('presence-room', { presence: { user_id: 'u1' } });
    expect(await getJson('/channels/news')).toEqual({ occupied: true });
    expect(await getJson('/channels/news', { info: 'subscription_count' })).toEqual({ occupied: true, subscription_count: 2 });
    expect(await getJson('/channels/empty', { info: 'subscription_count' })).toEqual({ occupied: false, subscription_count: 0 });
    expect(await getJson('/channels/presence-room', { info: 'user_count,subscription_count' })).toEqual({
      occupied: true,
      user_count: 1,
      subscription_count: 1,
    });
  });

  it('reports the cache attribute of a cache channel and nothing when empty', async () => {
    await api.subscriber('cache-score');
    expect(await getJson('/channels/cache-score', { info: 'cache' })).toEqual({ occupied: true });
    await api.pusher().trigger('cache-score', 'goal', '1-0');
    const attributes = (await getJson('/channels/cache-score', { info: 'cache,subscription_count' })) as Record<string, unknown>;
    expect(attributes).toMatchObject({ occupied: true, subscription_count: 1, cache: { data: '1-0' } });
  });

  it('answers 400 for user_count on a non-presence channel, a bad name or unknown info', async () => {
    await expect400('/channels/news', { info: 'user_count' }, 'user_count is only available for presence channels');
    await expect400('/channels/bad!name', {}, 'channel name may only contain');
    await expect400('/channels/news', { info: 'colour' }, 'unknown attribute "colour"');
  });
});

describe('GET /apps/:appId/channels/:channel/users', () => {
  it('lists the distinct users of a presence channel', async () => {
    await api.subscriber('presence-room', { presence: { user_id: '1', user_info: { name: 'Ann' } } });
    await api.subscriber('presence-room', { presence: { user_id: '1' } });
    await api.subscriber('presence-room', { presence: { user_id: '2' } });
    expect(await getJson('/channels/presence-room/users')).toEqual({ users: [{ id: '1' }, { id: '2' }] });
    expect(await getJson('/channels/presence-empty/users')).toEqual({ users: [] });
  });

  it('answers 400 for a channel that is not a presence channel', async () => {
    await expect400('/channels/private-x/users', {}, 'users are only listed for presence channels');
  });
});

describe('GET /apps/:appId/connections', () => {
  it("counts the app's connections", async () => {
    expect(await getJson('/connections')).toEqual({ connections: 0 });
    await api.subscriber('a');
    await api.subscriber('b');
    expect(await getJson('/connections')).toEqual({ connections: 2 });
  });
});

describe('POST /apps/:appId/users/:userId/terminate_connections', () => {
  it("closes the user's sockets and answers {}", async () => {
    const target = await api.subscriber('presence-room', { presence: { user_id: 'bob' } });
    const bystander = await api.subscriber('presence-room', { presence: { user_id: 'eve' } });
    const response = await api.pusher().terminateUserConnections('bob');
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({});
    expect(target.closed?.code).toBe(4009);
    expect(bystander.closed).toBeUndefined();
  });

  it('answers 400 for a user id over the length limit', async () => {
    const response = await signedFetch(api.baseUrl, {
      method: 'POST',
      path: `/apps/app-1/users/${'u'.repeat(129)}/terminate_connections`,
      body: '{}',
    });
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({ error: 'user id must be 1 to 128 characters', code: 400 });
  });
});
