/** The live events the API broadcasts and the bell listens for (their data: `NotificationLiveEvents`). */
export const NOTIFICATION_EVENTS = {
  created: 'notification.created',
  markedRead: 'notification.marked-read',
  markedUnread: 'notification.marked-unread',
  archived: 'notification.archived',
  unarchived: 'notification.unarchived',
  markedAllRead: 'notification.marked-all-read',
  deleted: 'notification.deleted',
  allDeleted: 'notification.all-deleted',
} as const;

/** A live event name (the same union as the contract's `NotificationLiveEventName`, which names their data). */
type LiveEventName = (typeof NOTIFICATION_EVENTS)[keyof typeof NOTIFICATION_EVENTS];

// Pure: a client that does not use the list leaves it out of its bundle.
/** Every live event name, in the order of `NOTIFICATION_EVENTS`. */
export const NOTIFICATION_EVENT_NAMES: readonly LiveEventName[] = /* @__PURE__ */ Object.values(NOTIFICATION_EVENTS);

/** True for the name of a live event of this contract; a client ignores any other. */
export function isNotificationLiveEventName(value: unknown): value is LiveEventName {
  return NOTIFICATION_EVENT_NAMES.includes(value as LiveEventName);
}

/** The private channel a user's live events go to unless the host names another: `private-App.Model.Entity.User.{userId}`. */
export function defaultChannelFor(userId: string): string {
  return `private-App.Model.Entity.User.${userId}`;
}
