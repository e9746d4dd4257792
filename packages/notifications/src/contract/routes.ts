/** A method the API routes on (HEAD is answered wherever GET is). */
export type RouteMethod = 'GET' | 'POST' | 'PATCH' | 'DELETE';

/** One route of the notifications API: a method and a path template, where `{name}` is a parameter. */
export interface Route {
  readonly method: RouteMethod;
  readonly path: string;
}

// Each route is its own constant as well as an entry of the table: a client's bundler keeps only
// the routes it uses (the bell's closed-bell file is held to a size budget).

/** A page of notifications: `ListResponse`. */
export const LIST_ROUTE = { method: 'GET', path: '/notification/notifications.json' } as const;
/** Deletes all of the user's notifications: `DeleteResponse`. */
export const DELETE_ALL_ROUTE = { method: 'DELETE', path: '/notification/notifications.json' } as const;
/** A page of unread notifications: `UnreadListResponse`. */
export const UNREAD_ROUTE = { method: 'GET', path: '/notification/notifications/unread.json' } as const;
/** `MarkAllReadResponse`. */
export const MARK_ALL_READ_ROUTE = { method: 'PATCH', path: '/notification/notifications/mark-all-read.json' } as const;
/** `MutationResponse`, as are the next three. */
export const MARK_READ_ROUTE = { method: 'PATCH', path: '/notification/notifications/{id}/read.json' } as const;
export const MARK_UNREAD_ROUTE = { method: 'PATCH', path: '/notification/notifications/{id}/unread.json' } as const;
export const ARCHIVE_ROUTE = { method: 'PATCH', path: '/notification/notifications/{id}/archive.json' } as const;
export const UNARCHIVE_ROUTE = { method: 'PATCH', path: '/notification/notifications/{id}/unarchive.json' } as const;
/** One notification: `ItemResponse`. */
export const GET_ROUTE = { method: 'GET', path: '/notification/notifications/{id}.json' } as const;
/** `DeleteResponse` (`deleted: 1`). */
export const DELETE_ROUTE = { method: 'DELETE', path: '/notification/notifications/{id}.json' } as const;
/** Signs a private-channel subscription for pusher-js: `ChannelAuthResponse`. */
export const CHANNEL_AUTH_ROUTE = { method: 'POST', path: '/broadcasting/auth' } as const;

/**
 * Every route of the notifications API. The server registers exactly these; clients build their
 * URLs from them with `buildPath`. Listed most specific path first: the server judges a request
 * by the first path it matches (so `unread.json` is never read as the item "unread"), and routes
 * that share a path are listed together.
 */
export const NOTIFICATION_ROUTES = {
  list: LIST_ROUTE,
  deleteAll: DELETE_ALL_ROUTE,
  unread: UNREAD_ROUTE,
  markAllRead: MARK_ALL_READ_ROUTE,
  markRead: MARK_READ_ROUTE,
  markUnread: MARK_UNREAD_ROUTE,
  archive: ARCHIVE_ROUTE,
  unarchive: UNARCHIVE_ROUTE,
  get: GET_ROUTE,
  delete: DELETE_ROUTE,
  channelAuth: CHANNEL_AUTH_ROUTE,
} as const satisfies Record<string, Route>;

export type NotificationRouteName = keyof typeof NOTIFICATION_ROUTES;

/** The parameter names of a path template: `'id'` for `/notification/notifications/{id}.json`. */
export type RouteParamName<Path extends string> = Path extends `${string}{${infer Name}}${infer Rest}` ? Name | RouteParamName<Rest> : never;

/** The values `buildPath` needs for a path template; none for a template without parameters. */
export type RouteParams<Path extends string> = [RouteParamName<Path>] extends [never] ? [] : [params: { readonly [Name in RouteParamName<Path>]: string }];

/**
 * The path a template names, each `{name}` replaced by `params[name]` URL-encoded (so an id cannot
 * reach another path): `buildPath(MARK_READ_ROUTE.path, { id })`. The parameters are typed from
 * the template. It takes the template rather than the route so that a client's minifier can
 * inline the route constants it reads (`.method`, `.path`) where they are used.
 */
export function buildPath<Path extends string>(template: Path, ...params: RouteParams<Path>): string;
// `params` is only read for a template with parameters, where the typed signature requires it.
export function buildPath(template: string, params: Readonly<Record<string, string>>): string {
  return template.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(params[name] as string));
}
