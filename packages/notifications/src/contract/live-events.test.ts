import { describe, expect, it } from 'vitest';
import { NOTIFICATION_EVENTS, NOTIFICATION_EVENT_NAMES, defaultChannelFor, isNotificationLiveEventName } from './live-events.js';

describe('live events', () => {
  it('lists every event name once, in the order of NOTIFICATION_EVENTS', () => {
    expect(NOTIFICATION_EVENT_NAMES).toEqual(Object.values(NOTIFICATION_EVENTS));
    expect(new Set(NOTIFICATION_EVENT_NAMES).size).toBe(8);
  });

  it('tells a contract event name from anything else', () => {
    for (const name of NOTIFICATION_EVENT_NAMES) expect(isNotificationLiveEventName(name)).toBe(true);
    for (const value of ['notification.unknown', 'pusher:subscription_succeeded', 'created', '', null, undefined, 1, {}, ['notification.created']]) {
      expect(isNotificationLiveEventName(value)).toBe(false);
    }
  });

  it("puts a user's events on private-App.Model.Entity.User.{userId}", () => {
    expect(defaultChannelFor('42')).toBe('private-App.Model.Entity.User.42');
  });
});
