import type { ActionType, NotificationAction, NotificationIcon, NotificationLiveEventName, NotificationResource } from '@org/notifications/contract';
import { describe, expectTypeOf, it } from 'vitest';
import type { NotificationApi } from './api/notification-api.js';
import { normalizeNotification } from './normalize.js';
import type { ACTION_TYPES, ICON_NAMES } from './types.js';
import type { AppNotification, LiveEventName } from './types.js';

describe('the bell speaks the notifications API contract', () => {
  it('lists exactly the contract icon names and action types at runtime', () => {
    expectTypeOf<(typeof ICON_NAMES)[number]>().toEqualTypeOf<NotificationIcon>();
    expectTypeOf<(typeof ACTION_TYPES)[number]>().toEqualTypeOf<ActionType>();
  });

  it('normalizes to the resource type and pages with it', () => {
    expectTypeOf(normalizeNotification).returns.toEqualTypeOf<NotificationResource>();
    expectTypeOf<AppNotification>().toEqualTypeOf<NotificationResource>();
    expectTypeOf<Awaited<ReturnType<NotificationApi['list']>>['notifications'][number]>().toEqualTypeOf<NotificationResource>();
    expectTypeOf<AppNotification['actions'][number]>().toEqualTypeOf<NotificationAction>();
  });

  it('handles every live event the API sends', () => {
    expectTypeOf<LiveEventName>().toEqualTypeOf<NotificationLiveEventName>();
  });
});
