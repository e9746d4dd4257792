import Pusher from 'pusher';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { NotificationsError } from '../errors.js';
import { createPusherBroadcaster } from './pusher-broadcaster.js';
import { startPusherApiTestServer } from '../../test/support/pusher-api-test-server.js';
import type { PusherApiTestServer } from '../../test/support/pusher-api-test-server.js';

const creds = { appId: 'app-1', key: 'app-key', secret: 'app-secret' };

describe('createPusherBroadcaster', () => {
  let server: PusherApiTestServer;
  beforeAll(async () => {
    server = await startPusherApiTestServer(creds.appId, creds.key, creds.secret);
  });
  afterAll(() => server.close());
  beforeEach(() => {
    server.triggers.length = 0;
    server.rejected.length = 0;
    server.failWith(null);
  });

  it('the test server accepts requests signed by the official pusher SDK (the checker is right)', async () => {
    const official = new Pusher({ ...creds, host: '127.0.0.1', port: String(server.port), useTLS: false });
    await official.trigger('private-a', 'ping', { n: 1 });
    expect(server.rejected).toEqual([]);
    expect(server.triggers).toEqual([{ name: 'ping', channels: ['private-a'], data: { n: 1 } }]);
  });

  it('triggers a signed event the server accepts, with data JSON-encoded once', async () => {
    const b = createPusherBroadcaster({ ...creds, host: '127.0.0.1', port: server.port });
    await b.trigger(['private-App.Model.Entity.User.7', 'private-x'], 'notification.created', { id: 'abc', title: "it's ☃" }, { socketId: '123.456' });
    expect(server.rejected).toEqual([]);
    expect(server.triggers).toEqual([
      { name: 'notification.created', channels: ['private-App.Model.Entity.User.7', 'private-x'], data: { id: 'abc', title: "it's ☃" }, socket_id: '123.456' },
    ]);
  });

  it('drops a malformed socket id instead of sending it', async () => {
    const b = createPusherBroadcaster({ ...creds, host: '127.0.0.1', port: server.port });
    await b.trigger(['c'], 'e', {}, { socketId: 'nope' });
    expect(server.triggers[0]).not.toHaveProperty('socket_id');
  });

  it('is refused with a wrong secret and reports BROADCAST_FAILED with the status', async () => {
    const b = createPusherBroadcaster({ ...creds, secret: 'wrong', host: '127.0.0.1', port: server.port });
    const error = await b.trigger(['c'], 'e', {}).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NotificationsError);
    expect(error).toMatchObject({ code: 'BROADCAST_FAILED', status: 401 });
    expect(server.rejected).toEqual(['auth_signature mismatch']);
  });

  it('reports a server error as BROADCAST_FAILED', async () => {
    server.failWith(503);
    const b = createPusherBroadcaster({ ...creds, host: '127.0.0.1', port: server.port });
    await expect(b.trigger(['c'], 'e', {})).rejects.toMatchObject({ code: 'BROADCAST_FAILED', status: 503 });
  });

  it('reports an unreachable server as BROADCAST_FAILED, not a crash', async () => {
    const closed = await startPusherApiTestServer('a', 'k', 's');
    await closed.close();
    const b = createPusherBroadcaster({ ...creds, host: '127.0.0.1', port: closed.port, timeoutMs: 2_000 });
    await expect(b.trigger(['c'], 'e', {})).rejects.toMatchObject({ code: 'BROADCAST_FAILED' });
  });

  it('enforces the payload and channel-count limits before sending', async () => {
    const b = createPusherBroadcaster({ ...creds, host: '127.0.0.1', port: server.port, maxPayloadBytes: 100 });
    await expect(b.trigger(['c'], 'e', { s: 'x'.repeat(200) })).rejects.toMatchObject({ code: 'PAYLOAD_TOO_LARGE' });
    await expect(b.trigger([], 'e', {})).rejects.toMatchObject({ code: 'INVALID_PARAMETER' });
    await expect(b.trigger(Array.from({ length: 101 }, (_, i) => `c${i}`), 'e', {})).rejects.toMatchObject({ code: 'INVALID_PARAMETER' });
    expect(server.triggers).toEqual([]);
  });

  it('signs private channels exactly like the official SDK', () => {
    const b = createPusherBroadcaster({ ...creds });
    const official = new Pusher({ ...creds, host: '127.0.0.1' });
    expect(b.authorizeChannel?.('123.456', 'private-App.Model.Entity.User.7')).toEqual(official.authorizeChannel('123.456', 'private-App.Model.Entity.User.7'));
  });

  it('validates options and names the bad key', () => {
    expect(() => createPusherBroadcaster({ ...creds, port: 70_000 })).toThrow(/option "port"/);
    expect(() => createPusherBroadcaster({ ...creds, secret: '' })).toThrow(/option "secret"/);
  });
});
