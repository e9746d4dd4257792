import Pusher from 'pusher-js';
import { beforeAll, describe, expect, it } from 'vitest';
import { daemonConfig, testApp } from './helpers/apps.js';
import { startDaemon, type RunningDaemon } from './helpers/daemon.js';
import { connectRaw, openRaw } from './helpers/raw-socket.js';
import { signedQuery } from './helpers/signed-request.js';
import { waitFor } from './helpers/wait.js';

const app = testApp('prefixed');
let daemon: RunningDaemon;

beforeAll(async () => {
  daemon = await startDaemon(daemonConfig([app], { servers: { main: { path: '/realtime' } } }));
});

const bearer = () => ({ authorization: `Bearer ${app.secret}`, 'content-type': 'application/json' });

describe('servers.main.path', () => {
  it('serves WebSockets under {path}/app/{key}: pusher-js connects with wsPath and receives events', async () => {
    const client = new Pusher(app.key, { wsHost: '127.0.0.1', wsPort: daemon.port, wsPath: '/realtime', forceTLS: false, enabledTransports: ['ws'], cluster: 'local', disableStats: true });
    try {
      const channel = client.subscribe('prefixed-news');
      await waitFor(() => (channel.subscribed ? true : undefined), 'the subscription on the prefixed path');
      const received: unknown[] = [];
      channel.bind('e', (data: unknown) => received.push(data));
      const response = await fetch(`${daemon.httpUrl}/realtime/apps/${app.id}/events`, {
        method: 'POST',
        headers: bearer(),
        body: JSON.stringify({ name: 'e', data: '{"via":"prefix"}', channel: 'prefixed-news' }),
      });
      expect(response.status).toBe(200);
      await waitFor(() => received[0], 'the event');
      expect(received).toEqual([{ via: 'prefix' }]);
    } finally {
      client.disconnect();
    }
  });

  it('does not serve WebSockets or the API outside the prefix', async () => {
    await expect(openRaw(daemon, app.key)).rejects.toThrow();
    expect((await fetch(`${daemon.httpUrl}/apps/${app.id}/connections`, { headers: bearer() })).status).toBe(404);
  });

  it('serves the HTTP API, /up and /metrics under the prefix', async () => {
    await connectRaw(daemon, app.key, { path: '/realtime' });
    const connections = await fetch(`${daemon.httpUrl}/realtime/apps/${app.id}/connections`, { headers: bearer() });
    expect(connections.status).toBe(200);
    expect(await connections.json()).toEqual({ connections: expect.any(Number) });
    expect((await fetch(`${daemon.httpUrl}/realtime/up`)).status).toBe(200);
    expect((await fetch(`${daemon.httpUrl}/realtime/metrics`)).status).toBe(200);
  });

  it('verifies signatures made over the path without the prefix (what an SDK behind a proxy signs)', async () => {
    const body = JSON.stringify({ name: 'e', data: '{}', channel: 'prefixed-news' });
    const query = signedQuery(app, { method: 'POST', path: `/apps/${app.id}/events`, body });
    const response = await fetch(`${daemon.httpUrl}/realtime/apps/${app.id}/events?${query}`, { method: 'POST', body, headers: { 'content-type': 'application/json' } });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({});
  });
});
