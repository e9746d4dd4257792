import type { LiveEvent, LiveEventName } from '../types.js';

// A record, so a name added to LiveEventName without being listed here fails the typecheck.
const KNOWN: Record<LiveEventName, true> = {
  'notification.created': true,
  'notification.marked-read': true,
  'notification.marked-unread': true,
  'notification.archived': true,
  'notification.unarchived': true,
  'notification.marked-all-read': true,
  'notification.deleted': true,
  'notification.all-deleted': true,
};

/** Every event the store understands; the SSE hub ignores others and the Pusher channel binds exactly these. */
export const LIVE_EVENT_NAMES = Object.keys(KNOWN) as readonly LiveEventName[];

export function isLiveEventName(value: unknown): value is LiveEventName {
  return typeof value === 'string' && Object.hasOwn(KNOWN, value);
}

export interface LiveHandlers {
  onEvent(event: LiveEvent): void;
  /** (Re)connected and subscribed: the caller resyncs, since events may have been missed. */
  onOpen(): void;
  onHealthChange(healthy: boolean): void;
  onError(error: unknown): void;
}

/** A live connection to the user's notification stream (Pusher channel or SSE hub). */
export interface LiveSource {
  close(): void;
  /** Pusher socket id, sent as X-Socket-ID so the server can skip echoing our own changes. */
  socketId?(): string | undefined;
}
