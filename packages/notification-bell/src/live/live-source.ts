import type { LiveEvent } from '../types.js';

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
