import type { ConnectionRecord } from './connection.js';
import { inChannelOrder } from './channel-order.js';
import type { EngineContext } from './engine-context.js';

/**
 * Sign-ins of a connection are recorded in order, in the queue its channel operations use (the key
 * is not a channel name): a close waits for them all, so it removes exactly the sign-in recorded.
 */
const signinQueue = ' signin';

/**
 * Records a sign-in with the scaler for watchlist events (only for apps that enable them): the
 * previous user of the connection, if another, may go offline; the new one may come online; then
 * the connection's own watchlist is registered BEFORE the online users are read, so a change during
 * the read reaches it (as an event; the initial status then leaves that user out) and none is missed.
 */
export function recordSignIn(context: EngineContext, connection: ConnectionRecord, previousUserId: string | undefined, userId: string, watchlist: readonly string[]): Promise<void> {
  return inChannelOrder(connection, signinQueue, async () => {
    const { app, socketId } = connection;
    const { scaler } = context;
    // Even after a close: the close removes the latest user only.
    if (previousUserId !== undefined && previousUserId !== userId && (await scaler.signOut(app.id, previousUserId, socketId))) {
      context.announceUserStatus(app, previousUserId, false);
    }
    if (connection.state === 'closed') return;
    if (await scaler.signIn(app.id, userId, socketId)) context.announceUserStatus(app, userId, true);
    context.watch(connection, watchlist);
    if (watchlist.length === 0) return;
    const online = await scaler.onlineUsers(app.id, watchlist);
    context.sendWatchlistStatus(connection, watchlist, online);
  });
}
