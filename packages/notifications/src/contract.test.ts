import { describe, expect, expectTypeOf, it } from 'vitest';
import { NOTIFICATION_EVENTS } from './broadcast/broadcaster.js';
import { createMemoryBroadcaster } from './broadcast/memory-broadcaster.js';
import { createNotificationsApi } from './api/create-notifications-api.js';
import type {
  ActionType,
  DeleteResponse,
  ItemResponse,
  ListResponse,
  MarkAllReadResponse,
  MutationResponse,
  NotificationAction,
  NotificationIcon,
  NotificationLiveEvent,
  NotificationLiveEventName,
  NotificationLiveEventPayload,
  NotificationLiveEvents,
  NotificationResource,
  UnreadListResponse,
} from './contract.js';
import type * as Root from './index.js';
import type { ACTION_TYPES, NOTIFICATION_ICONS } from './resource.js';
import type { NotificationStore } from './store/notification-store.js';
import { createPgliteStore } from './store/create-pglite-store.js';
import { content } from './store/store-conformance.js';

// Every key of the resource, checked against the type both ways, then against real answers below.
const RESOURCE_KEYS = ['id', 'type', 'title', 'message', 'action_url', 'icon', 'icon_class', 'actions', 'data', 'read_at', 'archived_at', 'created_at'] as const;
const keysOf = (value: object): string[] => Object.keys(value).sort();

describe('the contract types', () => {
  it('match the runtime lists (icons, action types, live event names) exactly', () => {
    expectTypeOf<(typeof NOTIFICATION_ICONS)[number]>().toEqualTypeOf<NotificationIcon>();
    expectTypeOf<(typeof ACTION_TYPES)[number]>().toEqualTypeOf<ActionType>();
    expectTypeOf<(typeof NOTIFICATION_EVENTS)[keyof typeof NOTIFICATION_EVENTS]>().toEqualTypeOf<NotificationLiveEventName>();
    expectTypeOf<(typeof RESOURCE_KEYS)[number]>().toEqualTypeOf<keyof NotificationResource>();
    expect(Object.values(NOTIFICATION_EVENTS)).toHaveLength(8);
  });

  it('describe the resource, actions and envelopes as the API answers them', () => {
    expectTypeOf<NotificationResource['archived_at']>().toEqualTypeOf<string | null>();
    expectTypeOf<NotificationAction['color']>().toEqualTypeOf<ActionType | undefined>();
    expectTypeOf<'fa fa-check'>().toExtend<NonNullable<NotificationAction['icon']>>();
    expectTypeOf<ListResponse['meta']>().toEqualTypeOf<{ page: number; limit: number; total: number; pages: number; has_next_page: boolean; unread_count: number }>();
    expectTypeOf<UnreadListResponse['meta']['count']>().toEqualTypeOf<number>();
    expectTypeOf<MutationResponse>().toEqualTypeOf<ItemResponse>();
    expectTypeOf<MarkAllReadResponse>().toEqualTypeOf<{ marked: number; meta: { unread_count: number } }>();
    expectTypeOf<DeleteResponse>().toEqualTypeOf<{ deleted: number; meta: { unread_count: number } }>();
    // The store hands out the same resource the API serialises.
    expectTypeOf<Awaited<ReturnType<NotificationStore['get']>>>().toEqualTypeOf<NotificationResource | null>();
    // The package root re-exports the contract unchanged.
    expectTypeOf<Root.NotificationResource>().toEqualTypeOf<NotificationResource>();
    expectTypeOf<Root.NotificationLiveEvents>().toEqualTypeOf<NotificationLiveEvents>();
  });

  it('give every live event its payload, narrowable by name', () => {
    expectTypeOf<NotificationLiveEventPayload<'notification.archived'>>().toEqualTypeOf<{ notification_id: string; unread_count: number }>();
    expectTypeOf<NotificationLiveEventPayload<'notification.all-deleted'>>().toEqualTypeOf<{ deleted: number; unread_count: number }>();
    expectTypeOf<NotificationLiveEventPayload<'notification.created'>>().toExtend<NotificationResource>();
    const unread = (live: NotificationLiveEvent): number | undefined => {
      switch (live.event) {
        case 'notification.all-deleted':
          expectTypeOf(live.data).toEqualTypeOf<{ deleted: number; unread_count: number }>();
          return live.data.unread_count;
        case 'notification.created':
          return live.data.unread_count;
        default:
          return live.data.unread_count;
      }
    };
    expect(unread({ event: 'notification.marked-all-read', data: { unread_count: 3 } })).toBe(3);
  });
});

describe('the contract against the real API', () => {
  it('every response and live event has exactly the keys its type names', async () => {
    const store = await createPgliteStore();
    const broadcaster = createMemoryBroadcaster();
    const app = createNotificationsApi({ store, broadcaster, resolveUser: () => ({ id: 'c' }), csrf: { token: () => 't' } });
    const call = async (method: string, path: string): Promise<Record<string, unknown>> => {
      const res = await app.request(`/notification/notifications${path}`, { method, headers: { 'X-CSRF-Token': 't' } });
      expect(res.status).toBe(200);
      return (await res.json()) as Record<string, unknown>;
    };
    const [a, b] = [await store.create({ ...content(), userId: 'c' }), await store.create({ ...content(), userId: 'c' })];
    const list = (await call('GET', '.json')) as unknown as ListResponse;
    expect(keysOf(list)).toEqual(['meta', 'notifications']);
    expect(keysOf(list.meta)).toEqual(['has_next_page', 'limit', 'page', 'pages', 'total', 'unread_count']);
    expect(keysOf(list.notifications[0]!)).toEqual([...RESOURCE_KEYS].sort());
    const unread = (await call('GET', '/unread.json')) as unknown as UnreadListResponse;
    expect(keysOf(unread.meta)).toEqual(['count', 'has_next_page', 'limit', 'page', 'pages', 'total', 'unread_count']);
    for (const [method, path] of [['GET', `/${a.id}.json`], ['PATCH', `/${a.id}/read.json`], ['PATCH', `/${a.id}/unread.json`], ['PATCH', `/${a.id}/archive.json`], ['PATCH', `/${a.id}/unarchive.json`]] as const) {
      const item = (await call(method, path)) as unknown as ItemResponse;
      expect([path, keysOf(item), keysOf(item.notification), keysOf(item.meta)]).toEqual([path, ['meta', 'notification'], [...RESOURCE_KEYS].sort(), ['unread_count']]);
    }
    expect(keysOf(await call('PATCH', '/mark-all-read.json'))).toEqual(['marked', 'meta']);
    expect(keysOf(await call('DELETE', `/${b.id}.json`))).toEqual(['deleted', 'meta']);
    expect(keysOf(await call('DELETE', '.json'))).toEqual(['deleted', 'meta']);

    const payloadKeys: { [E in NotificationLiveEventName]?: (keyof NotificationLiveEvents[E])[] } = {
      'notification.marked-read': ['notification_id', 'unread_count'],
      'notification.marked-unread': ['notification_id', 'unread_count'],
      'notification.archived': ['notification_id', 'unread_count'],
      'notification.unarchived': ['notification_id', 'unread_count'],
      'notification.marked-all-read': ['unread_count'],
      'notification.deleted': ['notification_id', 'unread_count'],
      'notification.all-deleted': ['deleted', 'unread_count'],
    };
    expect(broadcaster.events.map((e) => e.event)).toEqual(Object.keys(payloadKeys));
    for (const e of broadcaster.events) expect([e.event, keysOf(e.data as object)]).toEqual([e.event, [...(payloadKeys[e.event as NotificationLiveEventName] ?? [])].sort()]);
    await store.close();
  });
});
