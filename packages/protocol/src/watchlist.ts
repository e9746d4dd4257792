import type { App } from './app.js';
import { isWellFormedText } from './well-formed-text.js';

/** A watchlist as read from a sign-in's `user_data`, or why it is refused. */
export type WatchlistReading = { ok: true; userIds: readonly string[] } | { ok: false; problem: 'invalid_watchlist' | 'watchlist_too_long'; reason: string };

const none: WatchlistReading = Object.freeze({ ok: true, userIds: Object.freeze([]) as readonly string[] });

/**
 * Reads `user_data.watchlist` (Pusher's watchlist events): absent is an empty watchlist; otherwise
 * an array of non-empty user ids of Unicode text (no lone surrogate) of at most `maxUserIdLength` characters, duplicates collapsed, at
 * most `maxWatchlistSize` distinct ones. With watchlist events off for the app it is ignored, as
 * any other field of `user_data`. Never throws; stops at the first problem, so a huge hostile list
 * costs no more than reading it up to there.
 */
export function readWatchlist(app: App, user: object): WatchlistReading {
  if (!app.enableWatchlistEvents) return none;
  const watchlist: unknown = (user as { watchlist?: unknown }).watchlist;
  if (watchlist === undefined) return none;
  if (!Array.isArray(watchlist)) return { ok: false, problem: 'invalid_watchlist', reason: 'user_data.watchlist must be an array of user ids.' };
  const userIds = new Set<string>();
  for (let index = 0; index < watchlist.length; index++) {
    const userId: unknown = watchlist[index];
    if (typeof userId !== 'string' || userId === '' || userId.length > app.maxUserIdLength || !isWellFormedText(userId)) {
      return { ok: false, problem: 'invalid_watchlist', reason: `user_data.watchlist[${index}] must be a user id: a non-empty string of Unicode text of at most ${app.maxUserIdLength} characters.` };
    }
    userIds.add(userId);
    if (userIds.size > app.maxWatchlistSize) {
      return { ok: false, problem: 'watchlist_too_long', reason: `user_data.watchlist holds more than ${app.maxWatchlistSize} user ids, the limit of this app (max_watchlist_size).` };
    }
  }
  return userIds.size === 0 ? none : { ok: true, userIds: [...userIds] };
}
