/**
 * Every user-visible and ARIA string of the bell lives here, so one object
 * localizes the whole component. Plural messages are keyed by the
 * `Intl.PluralRules` category; `{count}` is replaced with the number.
 */
export type PluralMessage = Partial<Record<Intl.LDMLPluralRule, string>> & { other: string };

export interface MessageCatalog {
  /** Panel heading, and the bell's name at zero unread. */
  title: string;
  /** The bell's accessible name when there are unread items. */
  bellLabelUnread: PluralMessage;
  /** Announced in the polite status region when new items arrive. */
  newArrivals: PluralMessage;
  /** Announced after "load more". */
  loadedMore: PluralMessage;
  markAllRead: string;
  markRead: string;
  delete: string;
  close: string;
  loadMore: string;
  loading: string;
  empty: string;
  error: string;
  retry: string;
  /** Visually hidden prefix on unread items, so unread is not conveyed by colour alone. */
  unread: string;
}

export const defaultMessages: MessageCatalog = {
  title: 'Notifications',
  bellLabelUnread: { one: 'Notifications, {count} unread', other: 'Notifications, {count} unread' },
  newArrivals: { one: '{count} new notification', other: '{count} new notifications' },
  loadedMore: { one: 'Loaded {count} more notification', other: 'Loaded {count} more notifications' },
  markAllRead: 'Mark all as read',
  markRead: 'Mark as read',
  delete: 'Delete',
  close: 'Close',
  loadMore: 'Load more',
  loading: 'Loading notifications…',
  empty: 'You have no notifications',
  error: 'Notifications could not be loaded.',
  retry: 'Try again',
  unread: 'Unread:',
};

export function mergeMessages(overrides: Partial<MessageCatalog> | undefined): MessageCatalog {
  return overrides ? { ...defaultMessages, ...overrides } : defaultMessages;
}

const pluralRulesCache = new Map<string, Intl.PluralRules>();

function pluralRules(locale: string | undefined): Intl.PluralRules {
  const key = locale ?? '';
  let rules = pluralRulesCache.get(key);
  if (!rules) {
    rules = new Intl.PluralRules(locale);
    pluralRulesCache.set(key, rules);
  }
  return rules;
}

/** Picks the plural form for `count` in `locale` and fills in `{count}` (locale-formatted). */
export function formatPlural(message: PluralMessage, count: number, locale?: string): string {
  // An exact `zero` form wins for 0 even in languages whose rules never select it (like English).
  const category = count === 0 && message.zero !== undefined ? 'zero' : pluralRules(locale).select(count);
  const template = message[category] ?? message.other;
  return template.replaceAll('{count}', new Intl.NumberFormat(locale).format(count));
}

/** The visual badge text: the real number up to 99, then "99+". */
export function formatBadge(count: number, locale?: string): string {
  if (count <= 0) return '';
  return count > 99 ? `${new Intl.NumberFormat(locale).format(99)}+` : new Intl.NumberFormat(locale).format(count);
}

/** The bell button's accessible name; always carries the real count, never "99+". */
export function bellLabel(messages: MessageCatalog, count: number, locale?: string): string {
  return count > 0 ? formatPlural(messages.bellLabelUnread, count, locale) : messages.title;
}
