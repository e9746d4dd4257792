import { describe, expect, it } from 'vitest';
import { bellLabel, defaultMessages, failureMessage, formatBadge, formatPlural, mergeMessages } from './messages.js';
import type { StoreOperation } from './store.js';

describe('message catalog', () => {
  it('names the bell with the real unread count, singular and plural', () => {
    expect(bellLabel(defaultMessages, 0)).toBe('Notifications');
    expect(bellLabel(defaultMessages, 1)).toBe('Notifications, 1 unread');
    expect(bellLabel(defaultMessages, 3)).toBe('Notifications, 3 unread');
    expect(bellLabel(defaultMessages, 1500, 'en')).toBe('Notifications, 1,500 unread');
  });

  it('caps the visual badge at 99+ and hides it at zero', () => {
    expect(formatBadge(0)).toBe('');
    expect(formatBadge(7)).toBe('7');
    expect(formatBadge(99)).toBe('99');
    expect(formatBadge(100)).toBe('99+');
    expect(formatBadge(12345)).toBe('99+');
  });

  it('picks plural forms with Intl.PluralRules for the locale', () => {
    const polish = { one: '{count} nowe', few: '{count} nowe (few)', many: '{count} nowych', other: '{count} nowego' };
    expect(formatPlural(polish, 1, 'pl')).toBe('1 nowe');
    expect(formatPlural(polish, 3, 'pl')).toBe('3 nowe (few)');
    expect(formatPlural(polish, 5, 'pl')).toBe('5 nowych');
    expect(formatPlural(defaultMessages.newArrivals, 1, 'en')).toBe('1 new notification');
    expect(formatPlural(defaultMessages.newArrivals, 2, 'en')).toBe('2 new notifications');
  });

  it('uses an explicit zero form when given, and falls back to other for missing categories', () => {
    expect(formatPlural({ zero: 'none', other: '{count} items' }, 0, 'en')).toBe('none');
    expect(formatPlural({ other: '{count} items' }, 1, 'en')).toBe('1 items');
  });

  it('overrides single strings and keeps the rest of the English defaults', () => {
    const messages = mergeMessages({ title: 'Benachrichtigungen', bellLabelUnread: { one: '{count} ungelesen', other: '{count} ungelesen' } });
    expect(bellLabel(messages, 0)).toBe('Benachrichtigungen');
    expect(bellLabel(messages, 2, 'de')).toBe('2 ungelesen');
    expect(messages.markAllRead).toBe('Mark all as read');
  });

  it('has an alert for every failing store operation, overridable, and none for unknown names', () => {
    const operations: StoreOperation[] = ['load', 'loadMore', 'markAsRead', 'markAsUnread', 'archive', 'markAllAsRead', 'delete', 'deleteAll'];
    for (const operation of operations) expect(failureMessage(defaultMessages, operation), operation).toMatch(/^Couldn't .+\. Try again\.$/);
    expect(failureMessage(defaultMessages, 'delete')).toBe("Couldn't delete the notification. Try again.");
    expect(failureMessage(mergeMessages({ failedDelete: 'Löschen fehlgeschlagen.' }), 'delete')).toBe('Löschen fehlgeschlagen.');
    for (const name of ['', 'constructor', 'toString', '__proto__', 'unknown']) expect(failureMessage(defaultMessages, name), name).toBeUndefined();
  });

  it('names the new-items pill with a plural', () => {
    expect(formatPlural(defaultMessages.newItemsPill, 1, 'en')).toBe('1 new notification');
    expect(formatPlural(defaultMessages.newItemsPill, 12, 'en')).toBe('12 new notifications');
  });
});
