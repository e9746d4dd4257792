/** A method the API routes on (HEAD is answered wherever GET is). */
export type RouteMethod = 'GET' | 'POST' | 'PATCH' | 'DELETE';

/** One route of the notifications API: a method and a path template, where `{name}` is a parameter. */
export interface Route {
  readonly method: RouteMethod;
  readonly path: string;
}

/**
 * Every route of the notifications API. The server registers exactly these; clients build their
 * URLs from them with `routePath`. Listed most specific path first: the server judges a request
 * by the first path it matches (so `unread.json` is never read as the item "unread"), and routes
 * that share a path are listed together.
 */
export const NOTIFICATION_ROUTES = {
  /** A page of notifications: `ListResponse`. */
  list: { method: 'GET', path: '/notification/notifications.json' },
  /** Deletes all of the user's notifications: `DeleteResponse`. */
  deleteAll: { method: 'DELETE', path: '/notification/notifications.json' },
  /** A page of unread notifications: `UnreadListResponse`. */
  unread: { method: 'GET', path: '/notification/notifications/unread.json' },
  /** `MarkAllReadResponse`. */
  markAllRead: { method: 'PATCH', path: '/notification/notifications/mark-all-read.json' },
  /** `MutationResponse`, as are the next three. */
  markRead: { method: 'PATCH', path: '/notification/notifications/{id}/read.json' },
  markUnread: { method: 'PATCH', path: '/notification/notifications/{id}/unread.json' },
  archive: { method: 'PATCH', path: '/notification/notifications/{id}/archive.json' },
  unarchive: { method: 'PATCH', path: '/notification/notifications/{id}/unarchive.json' },
  /** `ItemResponse`. */
  get: { method: 'GET', path: '/notification/notifications/{id}.json' },
  /** `DeleteResponse` (`deleted: 1`). */
  delete: { method: 'DELETE', path: '/notification/notifications/{id}.json' },
  /** Signs a private-channel subscription for pusher-js: `ChannelAuthResponse`. */
  channelAuth: { method: 'POST', path: '/broadcasting/auth' },
} as const satisfies Record<string, Route>;

export type NotificationRouteName = keyof typeof NOTIFICATION_ROUTES;

/** The parameter names of a path template: `'id'` for `/notification/notifications/{id}.json`. */
export type RouteParamName<Path extends string> = Path extends `${string}{${infer Name}}${infer Rest}` ? Name | RouteParamName<Rest> : never;

/** The values `routePath` needs for a path template; none for a template without parameters. */
export type RouteParams<Path extends string> = [RouteParamName<Path>] extends [never] ? [] : [params: { readonly [Name in RouteParamName<Path>]: string }];

/**
 * The path of `route`, each `{name}` replaced by `params[name]` URL-encoded (so an id cannot
 * reach another path): `routePath(NOTIFICATION_ROUTES.markRead, { id })`. Throws a TypeError
 * for a parameter without a value.
 */
export function routePath<R extends Route>(route: R, ...[params]: RouteParams<R['path']>): string {
  return route.path.replace(/\{(\w+)\}/g, (_, name: string) => {
    const value = (params as Record<string, unknown> | undefined)?.[name];
    if (typeof value !== 'string') throw new TypeError(`${route.path}: no value for {${name}}`);
    return encodeURIComponent(value);
  });
}
