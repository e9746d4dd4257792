import { Hono } from 'hono';
import type { Context, Handler, MiddlewareHandler } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { z } from 'zod';
import type { Broadcaster } from '../broadcast/broadcaster.js';
import type {
  ApiErrorCode,
  ChannelAuthResponse,
  DeleteResponse,
  ErrorResponse,
  ItemResponse,
  ListResponse,
  MarkAllReadResponse,
  MutationResponse,
  NotificationLiveEvents,
  UnreadListResponse,
  NotificationRouteName,
} from '../contract.js';
import { CSRF_TOKEN_HEADER, NOTIFICATION_EVENTS, NOTIFICATION_ROUTES, SOCKET_ID_HEADER, defaultChannelFor } from '../contract.js';
import { SOCKET_ID } from '../broadcast/socket-id.js';
import { NotificationsError } from '../errors.js';
import type { NotificationsErrorCode } from '../errors.js';
import { parseOptions } from '../options.js';
import type { ChangeResult, ListResult, NotificationStorage } from '../store/notification-storage.js';
import { isNotificationId } from '../store/sql-store.js';
import { checkCsrf } from './csrf.js';
import type { CsrfOptions } from './csrf.js';
import { createQueryParsers } from './query-params.js';
import { ENDPOINTS, allowedMethods, honoPath, withoutSuffix } from './endpoints.js';

/** The authenticated user as the host knows it; only `id` is used. */
export interface ApiUser {
  id: string | number;
}

export interface NotificationsApiOptions {
  store: NotificationStorage;
  /** Who is asking; null/undefined means 401. */
  resolveUser: (c: Context) => ApiUser | null | undefined | Promise<ApiUser | null | undefined>;
  /** How mutations (PATCH, DELETE, POST) are checked against CSRF. */
  csrf: CsrfOptions;
  /** Announces changes to the user's other tabs, and signs `/broadcasting/auth`. */
  broadcaster?: Broadcaster;
  /** Private channel for a user. Default `private-App.Model.Entity.User.{userId}`. */
  channelFor?: (userId: string) => string;
  /** Page size when `limit` is absent. Default 20. */
  defaultLimit?: number;
  /** Largest accepted `limit`. Default 100. */
  maxLimit?: number;
  /** A failed broadcast never fails the request; it is reported here. Default: console.warn. */
  onBroadcastError?: (error: unknown, event: string) => void;
}

const fn = (what: string) => z.custom<(...args: never[]) => unknown>((v) => typeof v === 'function', `must be ${what}`);

const optionsSchema = z
  .object({
    store: z.custom<NotificationStorage>((v) => typeof v === 'object' && v !== null && typeof (v as NotificationStorage).list === 'function', 'must be a NotificationStorage'),
    resolveUser: fn('a function (c) => { id } | null'),
    csrf: z.union([
      z.object({ token: fn('a function (c) => string'), headerName: z.string().min(1).optional() }),
      z.object({ verify: fn('a function (c, token) => boolean'), headerName: z.string().min(1).optional() }),
    ], { message: 'must be { token(c) } or { verify(c, token) }' }),
    broadcaster: z.custom<Broadcaster>((v) => typeof v === 'object' && v !== null && typeof (v as Broadcaster).trigger === 'function', 'must be a Broadcaster').optional(),
    channelFor: fn('a function (userId) => string').optional(),
    defaultLimit: z.number().int().min(1).max(1000).default(20),
    maxLimit: z.number().int().min(1).max(1000).default(100),
    onBroadcastError: fn('a function (error, event) => void').optional(),
  })
  .refine((o) => o.defaultLimit <= o.maxLimit, { message: 'must not exceed "maxLimit"', path: ['defaultLimit'] });

/** The errors that cross the API as themselves; any other becomes 500 INTERNAL_ERROR. */
const STATUS: Partial<Record<ApiErrorCode & NotificationsErrorCode, ContentfulStatusCode>> = {
  INVALID_PARAMETER: 400,
  UNAUTHENTICATED: 401,
  CSRF_MISMATCH: 403,
  CHANNEL_FORBIDDEN: 403,
  NOT_FOUND: 404,
  METHOD_NOT_ALLOWED: 405,
  PAYLOAD_TOO_LARGE: 413,
  BROADCASTING_DISABLED: 503,
};

const isApiError = (code: NotificationsErrorCode): code is ApiErrorCode & NotificationsErrorCode => Object.hasOwn(STATUS, code);

type Env = { Variables: { notificationsUserId: string; notificationsEndpoint: boolean } };

/** What answers each route of the contract's table: middleware first, the handler last. */
type RouteHandlers = { [Name in NotificationRouteName]: readonly [...MiddlewareHandler<Env>[], Handler<Env>] };

const MUTATING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/**
 * The bell's JSON API as a hono app. Mount it with `app.route('/', createNotificationsApi(...))`.
 * Every route answers for the authenticated user only.
 */
export function createNotificationsApi(options: NotificationsApiOptions): Hono<Env> {
  const o = parseOptions(optionsSchema, options, 'createNotificationsApi');
  const store = options.store;
  const csrf = options.csrf;
  const broadcaster = options.broadcaster;
  const channelFor = options.channelFor ?? defaultChannelFor;
  const onBroadcastError =
    options.onBroadcastError ?? ((error: unknown, event: string) => console.warn(`[@org/notifications] broadcasting ${event} failed:`, error instanceof Error ? error.message : error));
  const parse = createQueryParsers(o.defaultLimit, o.maxLimit);

  const app = new Hono<Env>();

  app.onError((error, c) => {
    if (error instanceof NotificationsError && isApiError(error.code)) {
      return c.json({ error: error.message, code: error.code } satisfies ErrorResponse, STATUS[error.code] ?? 500);
    }
    return c.json({ error: 'Internal server error', code: 'INTERNAL_ERROR' } satisfies ErrorResponse, 500);
  });

  // Method check first, per endpoint, before authentication: the answer depends on the path
  // only. Endpoints are listed most specific first; the first one whose pattern matches decides,
  // so `/mark-all-read.json` is never judged by the rules of `/{id}.json`.
  for (const endpoint of ENDPOINTS) {
    app.all(endpoint.path, async (c, next) => {
      if (c.get('notificationsEndpoint')) return next();
      c.set('notificationsEndpoint', true);
      // hono answers HEAD with the GET route.
      const method = c.req.method === 'HEAD' ? 'GET' : c.req.method;
      if (endpoint.methods.includes(method)) return next();
      return c.json(
        { error: `Method ${c.req.method.slice(0, 20)} is not allowed here; use ${endpoint.methods.join(' or ')}`, code: 'METHOD_NOT_ALLOWED' } satisfies ErrorResponse,
        405,
        { Allow: allowedMethods(endpoint) },
      );
    });
  }

  const guard = async (c: Context<Env>, next: () => Promise<void>): Promise<void> => {
    const user = await options.resolveUser(c);
    const id = user?.id;
    if ((typeof id !== 'string' || id.length === 0) && (typeof id !== 'number' || !Number.isFinite(id))) {
      throw new NotificationsError('UNAUTHENTICATED', 'Authentication required');
    }
    if (MUTATING.has(c.req.method) && !(await checkCsrf(csrf, c))) {
      throw new NotificationsError('CSRF_MISMATCH', `Missing or invalid ${csrf.headerName ?? CSRF_TOKEN_HEADER} header`);
    }
    c.set('notificationsUserId', String(id));
    await next();
  };
  app.use('/notification/*', guard);
  app.use(NOTIFICATION_ROUTES.channelAuth.path, guard);

  /** Tells the user's other tabs; never fails the request. */
  const announce = async <E extends keyof NotificationLiveEvents>(c: Context<Env>, userId: string, event: E, data: NotificationLiveEvents[E]): Promise<void> => {
    if (!broadcaster) return;
    const socketId = c.req.header(SOCKET_ID_HEADER);
    try {
      await broadcaster.trigger([channelFor(userId)], event, data, socketId && SOCKET_ID.test(socketId) ? { socketId } : {});
    } catch (error) {
      onBroadcastError(error, event);
    }
  };

  /** The id of `/{id}.json`, whose parameter keeps the `.json` suffix (see `honoPath`). */
  const idFromFile = (file: string): string => {
    const id = withoutSuffix(file, '.json');
    if (!isNotificationId(id)) throw new NotificationsError('NOT_FOUND', 'Notification not found');
    return id;
  };
  const notFound = (): never => {
    throw new NotificationsError('NOT_FOUND', 'Notification not found');
  };

  const envelope = (page: number, limit: number, result: ListResult, unread: number) => ({
    page,
    limit,
    total: result.total,
    pages: Math.ceil(result.total / limit),
    has_next_page: result.hasMore,
    next_cursor: result.nextCursor,
    unread_count: unread,
  });

  /** PATCH …/{id}/<action>.json: one idempotent change, announced only when something changed. */
  const change =
    (
      apply: (userId: string, id: string) => Promise<ChangeResult | null>,
      event: 'notification.marked-read' | 'notification.marked-unread' | 'notification.archived' | 'notification.unarchived',
    ): Handler<Env> =>
    async (c) => {
      const userId = c.get('notificationsUserId');
      const id = c.req.param('id') ?? '';
      const result = isNotificationId(id) ? await apply(userId, id) : null;
      if (!result) return notFound();
      const unread = await store.unreadCount(userId);
      if (result.changed) await announce(c, userId, event, { notification_id: id, unread_count: unread });
      return c.json({ notification: result.notification, meta: { unread_count: unread } } satisfies MutationResponse);
    };

  const routes: RouteHandlers = {
    list: [
      async (c) => {
        const userId = c.get('notificationsUserId');
        const q = parse.list(c.req.query());
        const [result, unread] = await Promise.all([store.list(userId, q), store.unreadCount(userId)]);
        return c.json({ notifications: result.items, meta: envelope(q.page, q.limit, result, unread) } satisfies ListResponse);
      },
    ],
    deleteAll: [
      async (c) => {
        const userId = c.get('notificationsUserId');
        const deleted = await store.deleteAll(userId);
        const unread = await store.unreadCount(userId);
        if (deleted > 0) await announce(c, userId, NOTIFICATION_EVENTS.allDeleted, { deleted, unread_count: unread });
        return c.json({ deleted, meta: { unread_count: unread } } satisfies DeleteResponse);
      },
    ],
    unread: [
      async (c) => {
        const userId = c.get('notificationsUserId');
        const q = parse.unread(c.req.query());
        const result = await store.list(userId, { ...q, status: 'unread', archived: 'exclude' });
        // Unfiltered, the list's total is the unread count, so one query serves both.
        const unread = q.type === undefined ? result.total : await store.unreadCount(userId);
        return c.json({ notifications: result.items, meta: { ...envelope(q.page, q.limit, result, unread), count: result.total } } satisfies UnreadListResponse);
      },
    ],
    markAllRead: [
      async (c) => {
        const userId = c.get('notificationsUserId');
        const marked = await store.markAllRead(userId);
        const unread = await store.unreadCount(userId);
        if (marked > 0) await announce(c, userId, NOTIFICATION_EVENTS.markedAllRead, { unread_count: unread });
        return c.json({ marked, meta: { unread_count: unread } } satisfies MarkAllReadResponse);
      },
    ],
    markRead: [change((u, id) => store.markRead(u, id), NOTIFICATION_EVENTS.markedRead)],
    markUnread: [change((u, id) => store.markUnread(u, id), NOTIFICATION_EVENTS.markedUnread)],
    archive: [change((u, id) => store.archive(u, id), NOTIFICATION_EVENTS.archived)],
    unarchive: [change((u, id) => store.unarchive(u, id), NOTIFICATION_EVENTS.unarchived)],
    get: [
      async (c) => {
        const userId = c.get('notificationsUserId');
        const notification = await store.get(userId, idFromFile(c.req.param('id') ?? ''));
        if (!notification) return notFound();
        return c.json({ notification, meta: { unread_count: await store.unreadCount(userId) } } satisfies ItemResponse);
      },
    ],
    delete: [
      async (c) => {
        const userId = c.get('notificationsUserId');
        const id = idFromFile(c.req.param('id') ?? '');
        if (!(await store.delete(userId, id))) return notFound();
        const unread = await store.unreadCount(userId);
        await announce(c, userId, NOTIFICATION_EVENTS.deleted, { notification_id: id, unread_count: unread });
        return c.json({ deleted: 1, meta: { unread_count: unread } } satisfies DeleteResponse);
      },
    ],
    channelAuth: [
      bodyLimit({
        maxSize: 8 * 1024,
        onError: () => {
          throw new NotificationsError('PAYLOAD_TOO_LARGE', 'Request body is larger than 8 KiB');
        },
      }),
      async (c) => {
        const userId = c.get('notificationsUserId');
        if (!broadcaster?.authorizeChannel) {
          throw new NotificationsError('BROADCASTING_DISABLED', 'Channel authorization is not configured (the broadcaster has no credentials)');
        }
        const body = await readAuthBody(c);
        const socketId = body.socket_id;
        const channelName = body.channel_name;
        if (typeof socketId !== 'string' || !SOCKET_ID.test(socketId)) {
          throw new NotificationsError('INVALID_PARAMETER', 'Invalid parameter "socket_id": expected two dot-separated integers such as "123.456"');
        }
        if (typeof channelName !== 'string' || channelName.length === 0 || channelName.length > 200) {
          throw new NotificationsError('INVALID_PARAMETER', 'Invalid parameter "channel_name": expected a channel name of 1 to 200 characters');
        }
        if (channelName !== channelFor(userId)) {
          throw new NotificationsError('CHANNEL_FORBIDDEN', 'You may only subscribe to your own private channel');
        }
        return c.json(broadcaster.authorizeChannel(socketId, channelName) satisfies ChannelAuthResponse);
      },
    ],
  };
  // Registered from the contract's table, in its order (most specific path first): the API
  // answers exactly the routes the bell builds its URLs from.
  for (const [name, route] of Object.entries(NOTIFICATION_ROUTES) as [NotificationRouteName, (typeof NOTIFICATION_ROUTES)[NotificationRouteName]][]) {
    app.on(route.method, [honoPath(route.path)], ...routes[name]);
  }

  // Anything else under /notification/ (after authentication, so it reveals nothing new).
  app.all('/notification/*', () => {
    throw new NotificationsError('NOT_FOUND', 'No such endpoint');
  });

  return app;
}

/** pusher-js posts form-encoded fields; JSON is accepted too. Anything else reads as empty. */
async function readAuthBody(c: Context): Promise<Record<string, unknown>> {
  const type = c.req.header('content-type') ?? '';
  try {
    if (type.includes('application/json')) {
      const json: unknown = await c.req.json();
      return typeof json === 'object' && json !== null ? (json as Record<string, unknown>) : {};
    }
    if (type.includes('application/x-www-form-urlencoded') || type.includes('multipart/form-data')) {
      return (await c.req.parseBody()) as Record<string, unknown>;
    }
  } catch {
    throw new NotificationsError('INVALID_PARAMETER', 'Request body could not be parsed');
  }
  return {};
}
