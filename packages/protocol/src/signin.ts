import { verifyUserAuth } from './signing.js';
import { ErrorCode } from './close-codes.js';
import type { ConnectionRecord } from './connection.js';
import type { EngineContext } from './engine-context.js';
import { signinSuccessFrame } from './frames.js';
import { parseBoundedJson } from './bounded-json.js';
import { readWatchlist } from './watchlist.js';
import { recordSignIn } from './watchlist-signin.js';
import type { SigninRefusalReason } from './server-events.js';
import { isWellFormedText } from './well-formed-text.js';

const signedIn = Promise.resolve();

/**
 * `pusher:signin`: verifies `socket_id::user::user_data`, remembers the user
 * and subscribes the socket to `#server-to-user-{id}`; with watchlist events,
 * records the sign-in cluster-wide and sends the watchlist's status. A bad
 * sign-in (a watchlist too long included) closes the connection with 4009,
 * as Pusher does.
 */
export function handleSignin(context: EngineContext, connection: ConnectionRecord, data: unknown): Promise<void> {
  const { app } = connection;
  const { auth, user_data: userData } = (typeof data === 'object' && data !== null ? data : {}) as { auth?: unknown; user_data?: unknown };
  const fail = (why: SigninRefusalReason, reason: string) => {
    context.emit('signin.refused', { app, reason: why });
    context.refuse(connection, ErrorCode.Unauthorized, reason);
    return signedIn;
  };

  if (typeof userData !== 'string') return fail('invalid_user_data', 'pusher:signin needs user_data as a JSON string.');
  if (!verifyUserAuth(app, connection.socketId, userData, auth)) return fail('auth', 'Invalid signature for this socket and user_data.');
  const parsed = parseBoundedJson(userData, app.maxJsonDepth);
  if (!parsed.ok) return fail('invalid_user_data', parsed.problem === 'depth' ? `user_data nests deeper than ${app.maxJsonDepth} levels.` : 'user_data is not valid JSON.');
  const user = parsed.value;
  const id = typeof user === 'object' && user !== null ? (user as { id?: unknown }).id : undefined;
  if (typeof id !== 'string' || id === '') return fail('invalid_user_data', 'user_data.id must be a non-empty string.');
  if (id.length > app.maxUserIdLength) return fail('invalid_user_data', `user_data.id is longer than ${app.maxUserIdLength} characters.`);
  if (!isWellFormedText(id)) return fail('invalid_user_data', 'user_data.id must be Unicode text (it holds a lone UTF-16 surrogate).');
  const watchlist = readWatchlist(app, user as object);
  if (!watchlist.ok) return fail(watchlist.problem, watchlist.reason);

  const previousUserId = connection.userId;
  context.signIn(connection, id);
  context.send(connection, signinSuccessFrame(userData));
  context.log.connection.debug({ app: app.id, socketId: connection.socketId, userId: id }, 'signed in');
  return app.enableWatchlistEvents ? recordSignIn(context, connection, previousUserId, id, watchlist.userIds) : signedIn;
}
