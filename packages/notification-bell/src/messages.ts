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
  markUnread: string;
  archive: string;
  delete: string;
  deleteAll: string;
  /** The "Delete all" button's label after the first press: the second press deletes. */
  deleteAllConfirm: string;
  /** Announced when "Delete all" asks for its second press. */
  deleteAllPrompt: string;
  close: string;
  dismiss: string;
  loadMore: string;
  loading: string;
  empty: string;
  /** The Unread tab with nothing in it. */
  emptyUnread: string;
  error: string;
  retry: string;
  /** Visually hidden prefix on unread items, so unread is not conveyed by colour alone. */
  unread: string;
  /** The tab list's name and its two tabs. */
  filters: string;
  tabUnread: string;
  tabAll: string;
  /** The pill shown (and announced) when items arrived while the list was scrolled. */
  newItemsPill: PluralMessage;
  /** Shown beside a Retry button when a refresh failed after the list loaded (the list may be out of date). */
  stale: string;
  /** Shown instead of the list or the generic error after the API answered 401. */
  signedOut: string;
  /** Inline alerts for a failed action (already undone), one per store operation. */
  failedMarkAsRead: string;
  failedMarkAsUnread: string;
  failedArchive: string;
  failedDelete: string;
  failedMarkAllAsRead: string;
  failedDeleteAll: string;
  failedLoadMore: string;
  failedLoad: string;
}

export const defaultMessages: MessageCatalog = {
  title: 'Notifications',
  bellLabelUnread: { one: 'Notifications, {count} unread', other: 'Notifications, {count} unread' },
  newArrivals: { one: '{count} new notification', other: '{count} new notifications' },
  loadedMore: { one: 'Loaded {count} more notification', other: 'Loaded {count} more notifications' },
  markAllRead: 'Mark all as read',
  markRead: 'Mark as read',
  markUnread: 'Mark as unread',
  archive: 'Archive',
  delete: 'Delete',
  deleteAll: 'Delete all',
  deleteAllConfirm: 'Confirm: delete all',
  deleteAllPrompt: 'Press again to delete all notifications.',
  close: 'Close',
  dismiss: 'Dismiss',
  loadMore: 'Load more',
  loading: 'Loading notifications…',
  empty: 'You have no notifications',
  emptyUnread: 'You have no unread notifications',
  error: 'Notifications could not be loaded.',
  retry: 'Try again',
  unread: 'Unread:',
  filters: 'Show',
  tabUnread: 'Unread',
  tabAll: 'All',
  newItemsPill: { one: '{count} new notification', other: '{count} new notifications' },
  stale: "Couldn't refresh. The list may be out of date.",
  signedOut: "You're signed out. Sign in again to see your notifications.",
  failedMarkAsRead: "Couldn't mark the notification as read. Try again.",
  failedMarkAsUnread: "Couldn't mark the notification as unread. Try again.",
  failedArchive: "Couldn't archive the notification. Try again.",
  failedDelete: "Couldn't delete the notification. Try again.",
  failedMarkAllAsRead: "Couldn't mark all notifications as read. Try again.",
  failedDeleteAll: "Couldn't delete all notifications. Try again.",
  failedLoadMore: "Couldn't load more notifications. Try again.",
  failedLoad: "Couldn't load notifications. Try again.",
};

/** The catalog key of the alert for a failed store operation ('failedDelete' for 'delete'); undefined for unknown ones. */
export function failureMessage(messages: MessageCatalog, operation: string): string | undefined {
  const key = `failed${operation[0]?.toUpperCase() ?? ''}${operation.slice(1)}`;
  return Object.hasOwn(messages, key) ? (messages as unknown as Record<string, string>)[key] : undefined;
}

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
