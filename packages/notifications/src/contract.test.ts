import { describe, expect, expectTypeOf, it } from 'vitest';
import { NOTIFICATION_EVENTS } from './contract.js';
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
import type { NotificationStorage } from './store/notification-storage.js';
import type { RESOURCE_KEYS } from '../test/support/api-suite.js';

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
    expectTypeOf<ListResponse['meta']>().toEqualTypeOf<{ page: number; limit: number; total: number; pages: number; has_next_page: boolean; next_cursor: string | null; unread_count: number }>();
    expectTypeOf<UnreadListResponse['meta']['count']>().toEqualTypeOf<number>();
    expectTypeOf<MutationResponse>().toEqualTypeOf<ItemResponse>();
    expectTypeOf<MarkAllReadResponse>().toEqualTypeOf<{ marked: number; meta: { unread_count: number } }>();
    expectTypeOf<DeleteResponse>().toEqualTypeOf<{ deleted: number; meta: { unread_count: number } }>();
    // The store hands out the same resource the API serialises.
    expectTypeOf<Awaited<ReturnType<NotificationStorage['get']>>>().toEqualTypeOf<NotificationResource | null>();
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
