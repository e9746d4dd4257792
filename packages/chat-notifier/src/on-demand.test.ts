import { AnonymousNotifiable } from '@org/notifications';
import { OnDemandRecipient } from '@org/notifications/contract';
import { describe, expect, it } from 'vitest';
import { ON_DEMAND, OnDemandNotifiable, isOnDemandNotifiable } from './on-demand.js';

describe('on-demand notifiables', () => {
  it("share @org/notifications' brand, the registered symbol @org/notifications.on-demand", () => {
    expect(ON_DEMAND).toBe(Symbol.for('@org/notifications.on-demand'));
    expect(new OnDemandNotifiable()[ON_DEMAND]).toBe(true);
  });

  it("are this package's OnDemandNotifiable, @org/notifications' AnonymousNotifiable, or any OnDemandRecipient", () => {
    expect(isOnDemandNotifiable(new OnDemandNotifiable().route('chat', '#alerts'))).toBe(true);
    expect(isOnDemandNotifiable(new AnonymousNotifiable({ send: () => Promise.resolve() }).route('chat', '#alerts'))).toBe(true);
    expect(isOnDemandNotifiable(new (class extends OnDemandRecipient {})())).toBe(true);
  });

  it('are told by the brand, not by a class name (which minifiers rename)', () => {
    class AnonymousNotifiableLookalike {
      readonly routes = new Map<string, unknown>([['chat', '#alerts']]);
    }
    Object.defineProperty(AnonymousNotifiableLookalike, 'name', { value: 'AnonymousNotifiable' });
    expect(isOnDemandNotifiable(new AnonymousNotifiableLookalike())).toBe(false);
    for (const value of [null, undefined, '#alerts', {}, { name: 'jane' }]) expect(isOnDemandNotifiable(value)).toBe(false);
  });

  it('keep their routes and say where to send on a channel', () => {
    const recipient = new OnDemandNotifiable().route('chat', '#a').route('chat-ops', '@jane');
    expect(recipient.routeNotificationFor('chat')).toBe('#a');
    expect(recipient.routeNotificationFor('chat-ops')).toBe('@jane');
    expect(recipient.routeNotificationFor('mail')).toBeUndefined();
  });

  it('made without a sender, refuse notify() with a TypeError', async () => {
    await expect(new OnDemandNotifiable().notify({ via: () => ['chat'] })).rejects.toThrowError(TypeError);
  });
});
