import Pusher from 'pusher';
import { describe, expect, it } from 'vitest';
import { createMemoryBroadcaster } from './memory-broadcaster.js';

describe('createMemoryBroadcaster', () => {
  it('records triggered events in order, with the excluded socket id when given', async () => {
    const b = createMemoryBroadcaster();
    await b.trigger(['private-a'], 'notification.deleted', { notification_id: 'x', unread_count: 0 });
    await b.trigger(['private-a', 'private-b'], 'notification.marked-all-read', { unread_count: 0 }, { socketId: '1.2' });
    expect(b.events).toEqual([
      { channels: ['private-a'], event: 'notification.deleted', data: { notification_id: 'x', unread_count: 0 } },
      { channels: ['private-a', 'private-b'], event: 'notification.marked-all-read', data: { unread_count: 0 }, socketId: '1.2' },
    ]);
  });

  it('signs private channels only when given credentials, like the official SDK', () => {
    expect(createMemoryBroadcaster().authorizeChannel).toBeUndefined();
    const b = createMemoryBroadcaster({ key: 'k', secret: 's' });
    expect(b.authorizeChannel?.('5.6', 'private-x')).toEqual(new Pusher({ appId: '1', key: 'k', secret: 's', host: '127.0.0.1' }).authorizeChannel('5.6', 'private-x'));
  });
});
