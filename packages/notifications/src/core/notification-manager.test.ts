import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createPusherBroadcaster } from '../broadcast/pusher-broadcaster.js';
import { startPusherApiTestServer } from '../../test/support/pusher-api-test-server.js';
import type { PusherApiTestServer } from '../../test/support/pusher-api-test-server.js';
import { DeliveryError, NotificationsError } from '../errors.js';
import type { NotificationContent } from '../resource.js';
import { createPgliteStore } from '../store/create-pglite-store.js';
import type { NotificationStorage } from '../store/notification-storage.js';
import type { Notifiable, Notification, NotificationChannel } from './contracts.js';
import { createNotificationManager } from './create-notification-manager.js';
import { NotificationManager } from './notification-manager.js';

class CommentPosted implements Notification {
  constructor(
    private readonly author: string,
    private readonly channels: readonly string[] = ['database', 'broadcast'],
  ) {}
  via(): readonly string[] {
    return this.channels;
  }
  toDatabase(): NotificationContent {
    return { title: `${this.author} commented`, message: 'Nice post', icon: 'message', action_url: '/posts/1', data: { author: this.author } };
  }
}

interface Sent {
  notifiable: Notifiable;
  channel: string;
  id: unknown;
}

/** A channel that keeps what it was asked to send (a real channel, in memory). */
function collectingChannel(sent: Sent[]): NotificationChannel {
  return {
    async send(notifiable, notification, channel) {
      sent.push({ notifiable, channel, id: (notification as { id?: unknown }).id });
    },
  };
}

describe('NotificationManager with the database and broadcast channels', () => {
  let store: NotificationStorage;
  let pusher: PusherApiTestServer;
  let manager: NotificationManager;

  beforeAll(async () => {
    store = await createPgliteStore();
    pusher = await startPusherApiTestServer('app', 'key', 'secret');
    manager = createNotificationManager({ store, broadcaster: createPusherBroadcaster({ appId: 'app', key: 'key', secret: 'secret', port: pusher.port }) });
  });
  afterAll(async () => {
    await pusher.close();
    await store.close();
  });
  beforeEach(() => {
    pusher.triggers.length = 0;
  });

  it('stores for each user, then broadcasts notification.created with the stored row and unread count', async () => {
    const users = [{ id: 1 }, { id: 'b' }];
    const deliveries = await manager.send(users, new CommentPosted('Ann'));
    expect(deliveries.map((d) => `${d.channel}:${d.status}`)).toEqual(['database:sent', 'broadcast:sent', 'database:sent', 'broadcast:sent']);

    const stored = await store.list('1', { page: 1, limit: 10, status: 'all' });
    expect(stored.items).toHaveLength(1);
    const row = stored.items[0]!;
    expect(row).toMatchObject({ type: 'CommentPosted', title: 'Ann commented', icon: 'message', data: { author: 'Ann' } });
    expect(row.id).toBe(deliveries[0]!.id);

    expect(pusher.triggers[0]).toEqual({ name: 'notification.created', channels: ['private-App.Model.Entity.User.1'], data: { ...row, unread_count: 1 } });
    expect(pusher.triggers[1]?.channels).toEqual(['private-App.Model.Entity.User.b']);
    // Each recipient gets its own id.
    expect(deliveries[2]!.id).not.toBe(deliveries[0]!.id);
  });

  it('sends on demand through route(): database to a user id, and a custom channel to its route', async () => {
    const sent: Sent[] = [];
    manager.extend('chat', collectingChannel(sent));
    await manager.route('database', 'ondemand').route('chat', '#alerts').notify(new CommentPosted('Bob', ['database', 'chat']));
    expect(await store.unreadCount('ondemand')).toBe(1);
    expect(sent).toHaveLength(1);
    expect(sent[0]!.channel).toBe('chat');
    expect(sent[0]!.notifiable.routeNotificationFor?.('chat', {})).toBe('#alerts');
  });

  it('uses toBroadcast for broadcast-only notifications, without storing anything', async () => {
    const notification = {
      type: 'deploy',
      via: () => ['broadcast'],
      toBroadcast: (): NotificationContent => ({ title: 'Deployed', icon: 'check' }),
    };
    await manager.notify({ id: 'bc-only' }, notification);
    expect(await store.unreadCount('bc-only')).toBe(0);
    expect(pusher.triggers[0]?.data).toMatchObject({ type: 'deploy', title: 'Deployed', icon: 'check', read_at: null, unread_count: 0 });
  });
});

describe('NotificationManager channel resolution and failures', () => {
  it('resolves exact names first, then resolvers, passing the exact channel name', async () => {
    const exact: Sent[] = [];
    const resolved: Sent[] = [];
    const manager = new NotificationManager({
      channels: { chat: collectingChannel(exact) },
      resolvers: [(name) => (name.startsWith('chat-') ? collectingChannel(resolved) : undefined)],
    });
    await manager.notify({}, { via: () => ['chat', 'chat-alerts', 'chat'] });
    expect(exact.map((s) => s.channel)).toEqual(['chat']);
    expect(resolved.map((s) => s.channel)).toEqual(['chat-alerts']);
    expect(exact[0]!.id).toBe(resolved[0]!.id);
  });

  it('skips a channel when shouldSend() returns false', async () => {
    const sent: Sent[] = [];
    const manager = new NotificationManager({ channels: { a: collectingChannel(sent), b: collectingChannel(sent) } });
    const deliveries = await manager.send({}, { via: () => ['a', 'b'], shouldSend: (_n: Notifiable, ch: string) => ch !== 'b' } as Notification);
    expect(sent.map((s) => s.channel)).toEqual(['a']);
    expect(deliveries.map((d) => d.status)).toEqual(['sent', 'skipped']);
  });

  it('tries every channel and throws one DeliveryError listing what failed', async () => {
    const sent: Sent[] = [];
    const manager = new NotificationManager({ channels: { ok: collectingChannel(sent) } });
    const error = await manager.send([{}, {}], { via: () => ['missing', 'ok'] }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DeliveryError);
    expect(error).toBeInstanceOf(NotificationsError);
    const failures = (error as DeliveryError).failures;
    expect(failures.map((f) => [f.channel, (f.error as NotificationsError).code])).toEqual([
      ['missing', 'CHANNEL_NOT_FOUND'],
      ['missing', 'CHANNEL_NOT_FOUND'],
    ]);
    expect(sent).toHaveLength(2);
  });

  it('rejects invalid content with INVALID_NOTIFICATION naming the key, and a recipient without id with ROUTE_NOT_FOUND', async () => {
    const store = await createPgliteStore();
    try {
      const manager = createNotificationManager({ store });
      const bad = { via: () => ['database'], toArray: () => ({ title: 'x', icon: 'rocket' }) as unknown as NotificationContent };
      const e1 = (await manager.notify({ id: 1 }, bad).catch((e: unknown) => e)) as DeliveryError;
      expect(e1.failures[0]!.error).toMatchObject({ code: 'INVALID_NOTIFICATION', message: expect.stringContaining('"icon"') });
      const good = { via: () => ['database'], toArray: (): NotificationContent => ({ title: 'x' }) };
      const e2 = (await manager.notify({}, good).catch((e: unknown) => e)) as DeliveryError;
      expect(e2.failures[0]!.error).toMatchObject({ code: 'ROUTE_NOT_FOUND' });
      const tooBig = { via: () => ['database'], toArray: (): NotificationContent => ({ title: 'x', data: { blob: 'x'.repeat(20_000) } }) };
      const e3 = (await manager.notify({ id: 1 }, tooBig).catch((e: unknown) => e)) as DeliveryError;
      expect(e3.failures[0]!.error).toMatchObject({ code: 'INVALID_NOTIFICATION', message: expect.stringContaining('"data"') });
      expect(await store.unreadCount('1')).toBe(0);
    } finally {
      await store.close();
    }
  });
});
