import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { signedFetch, startApi, type ApiFixture } from '../test/support/test-fixture.js';

let api: ApiFixture;
beforeEach(async () => {
  api = await startApi({ pathPrefix: '/realtime' });
});
afterEach(async () => {
  await api.close();
});

describe('pathPrefix', () => {
  it('serves routes under the prefix and verifies signatures on the path without it, as pusher-http-php signs', async () => {
    const socket = await api.subscriber('presence-room', { presence: { user_id: 'u1' } });
    const trigger = await signedFetch(api.baseUrl, {
      method: 'POST',
      urlPrefix: '/realtime',
      path: '/apps/app-1/events',
      body: JSON.stringify({ name: 'e', data: 'x', channel: 'presence-room' }),
      encode: true,
    });
    expect(trigger.status).toBe(200);
    expect(socket.events('e')).toHaveLength(1);

    const channels = await signedFetch(api.baseUrl, {
      method: 'GET',
      urlPrefix: '/realtime',
      path: '/apps/app-1/channels',
      params: { filter_by_prefix: 'presence-', info: 'user_count' },
      encode: true,
    });
    expect(await channels.json()).toEqual({ channels: { 'presence-room': { user_count: 1 } } });
  });

  it('refuses a signature computed over the prefixed path', async () => {
    const response = await signedFetch(api.baseUrl, { method: 'GET', path: '/realtime/apps/app-1/connections' });
    expect(response.status).toBe(401);
  });

  it('answers 404 outside the prefix', async () => {
    const outside = await signedFetch(api.baseUrl, { method: 'GET', path: '/apps/app-1/connections' });
    expect(outside.status).toBe(404);
  });
});
