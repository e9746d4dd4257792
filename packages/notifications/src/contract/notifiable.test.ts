import { describe, expect, it } from 'vitest';
import { AnonymousNotifiable } from '../core/anonymous-notifiable.js';
import { ON_DEMAND_NOTIFIABLE, OnDemandRecipient, isOnDemandNotifiable } from './notifiable.js';

const sender = { send: () => Promise.resolve() };

describe('the on-demand brand', () => {
  it('is the registered symbol @org/notifications.on-demand, so every copy of the contract shares it', () => {
    expect(ON_DEMAND_NOTIFIABLE).toBe(Symbol.for('@org/notifications.on-demand'));
  });

  it("is set by the manager's AnonymousNotifiable, and by any OnDemandRecipient", () => {
    const anonymous = new AnonymousNotifiable(sender).route('chat', '#alerts');
    expect(anonymous[ON_DEMAND_NOTIFIABLE]).toBe(true);
    expect(isOnDemandNotifiable(anonymous)).toBe(true);
    class Pager extends OnDemandRecipient {}
    expect(isOnDemandNotifiable(new Pager())).toBe(true);
  });

  it('is what counts, not the class name (which minifiers rename)', () => {
    class AnonymousNotifiableLookalike {
      routes = new Map<string, unknown>();
    }
    Object.defineProperty(AnonymousNotifiableLookalike, 'name', { value: 'AnonymousNotifiable' });
    expect(isOnDemandNotifiable(new AnonymousNotifiableLookalike())).toBe(false);
    const renamed = new (class e extends OnDemandRecipient {})();
    expect(isOnDemandNotifiable(renamed)).toBe(true);
    for (const value of [null, undefined, 'x', 1, {}, { [ON_DEMAND_NOTIFIABLE]: 'yes' }]) expect(isOnDemandNotifiable(value)).toBe(false);
  });
});

describe('OnDemandRecipient', () => {
  it('keeps one route per channel, the last one given, and answers routeNotificationFor', () => {
    const recipient = new AnonymousNotifiable(sender).route('chat', '#a').route('mail', 'ops@example.test').route('chat', '#b');
    expect(recipient.routeNotificationFor('chat')).toBe('#b');
    expect(recipient.routeNotificationFor('mail')).toBe('ops@example.test');
    expect(recipient.routeNotificationFor('sms')).toBeUndefined();
    expect([...recipient.routes]).toEqual([
      ['chat', '#b'],
      ['mail', 'ops@example.test'],
    ]);
  });
});
