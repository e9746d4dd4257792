import {
  ARCHIVE_ROUTE,
  CSRF_TOKEN_HEADER,
  DELETE_ALL_ROUTE,
  DELETE_ROUTE,
  LIST_ROUTE,
  MARK_ALL_READ_ROUTE,
  MARK_READ_ROUTE,
  MARK_UNREAD_ROUTE,
  UNREAD_ROUTE,
  buildPath,
} from '@org/notifications/contract';
import type { RouteMethod } from '@org/notifications/contract';
import { NotificationBellError } from '../errors.js';
import { isRecord, normalizeNotification, readUnreadCount } from '../normalize.js';
import type { MutationResult, NotificationApi, NotificationPage, PageRequest } from './notification-api.js';
import { readCsrfToken } from './csrf.js';

export interface HttpNotificationApiOptions {
  /** Where the JSON API lives; '' = same origin. */
  apiBase?: string;
  fetch?: typeof fetch;
  /** Defaults to `<meta name="csrfToken">`. */
  csrfToken?: () => string | undefined;
  /** Extra headers on every request (e.g. `X-Socket-ID` so the server can skip echoing to us). */
  headers?: () => Record<string, string>;
  /**
   * How long a request may take before it fails with `NETWORK_ERROR` (default 30,000 ms). A change
   * to an item waits for the item's previous change to be answered, so one stalled request must not
   * hold the next ones for good.
   */
  timeoutMs?: number;
}

const DEFAULT_TIMEOUT_MS = 30_000;

export function createHttpNotificationApi(options: HttpNotificationApiOptions = {}): NotificationApi {
  const apiBase = (options.apiBase ?? '').replace(/\/+$/, '');
  const doFetch = options.fetch ?? ((input, init) => globalThis.fetch(input, init));
  const csrfToken = options.csrfToken ?? (() => readCsrfToken());
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  if (!Number.isFinite(timeoutMs) || timeoutMs <= 0) throw new NotificationBellError('INVALID_OPTION', `timeoutMs must be a positive number of milliseconds, got ${String(timeoutMs)}.`);

  /** Calls a route of the contract's table: its method, and its path below apiBase (query string included). */
  async function request(method: RouteMethod, path: string): Promise<Record<string, unknown>> {
    const headers: Record<string, string> = { Accept: 'application/json', ...options.headers?.() };
    if (method !== 'GET') {
      const token = csrfToken();
      if (token) headers[CSRF_TOKEN_HEADER] = token;
    }
    const signal = AbortSignal.timeout(timeoutMs);
    const failure = (cause: unknown) =>
      new NotificationBellError('NETWORK_ERROR', signal.aborted ? `${method} ${path} timed out after ${timeoutMs} ms.` : `${method} ${path} failed: ${String(cause)}`, { cause });
    let response: Response;
    try {
      // keepalive lets a mark-read finish when the click navigates away.
      response = await doFetch(`${apiBase}${path}`, { method, headers, credentials: 'same-origin', keepalive: method !== 'GET', signal });
    } catch (cause) {
      throw failure(cause);
    }
    let body: unknown;
    try {
      body = await response.json();
    } catch (cause) {
      if (signal.aborted) throw failure(cause);
      if (response.ok) throw new NotificationBellError('INVALID_RESPONSE', `${method} ${path} did not return JSON.`, { status: response.status, cause });
    }
    if (!response.ok) {
      const record = isRecord(body) ? body : {};
      const message = typeof record.error === 'string' ? record.error : `HTTP ${response.status}`;
      throw new NotificationBellError('HTTP_ERROR', `${method} ${path}: ${message}`, {
        status: response.status,
        ...(typeof record.code === 'string' ? { serverCode: record.code } : {}),
      });
    }
    if (!isRecord(body)) throw new NotificationBellError('INVALID_RESPONSE', `${method} ${path} returned a non-object body.`, { status: response.status });
    return body;
  }

  const mutation = async (method: RouteMethod, path: string): Promise<MutationResult> => ({ unreadCount: readUnreadCount((await request(method, path)).meta) });

  return {
    async list({ page, limit, filter = 'all', before }: PageRequest): Promise<NotificationPage> {
      const query = `page=${page}&limit=${limit}${before === undefined ? '' : `&before=${encodeURIComponent(before)}`}`;
      const unread = filter === 'unread';
      const path = unread ? `${UNREAD_ROUTE.path}?${query}` : `${LIST_ROUTE.path}?${query}&status=all`;
      const body = await request(unread ? UNREAD_ROUTE.method : LIST_ROUTE.method, path);
      if (!Array.isArray(body.notifications)) {
        throw new NotificationBellError('INVALID_RESPONSE', `${path}: "notifications" must be an array.`);
      }
      const meta = isRecord(body.meta) ? body.meta : {};
      return {
        notifications: body.notifications.map(normalizeNotification),
        page: typeof meta.page === 'number' ? meta.page : page,
        hasNextPage: meta.has_next_page === true,
        unreadCount: readUnreadCount(meta),
        nextCursor: typeof meta.next_cursor === 'string' && meta.next_cursor !== '' ? meta.next_cursor : null,
      };
    },
    // Routes of the contract's table, imported one by one and read field by field (never passed
    // whole), so the bundle keeps only these and the minifier inlines their method and path.
    markRead: (id) => mutation(MARK_READ_ROUTE.method, buildPath(MARK_READ_ROUTE.path, { id })),
    markUnread: (id) => mutation(MARK_UNREAD_ROUTE.method, buildPath(MARK_UNREAD_ROUTE.path, { id })),
    archive: (id) => mutation(ARCHIVE_ROUTE.method, buildPath(ARCHIVE_ROUTE.path, { id })),
    markAllRead: () => mutation(MARK_ALL_READ_ROUTE.method, MARK_ALL_READ_ROUTE.path),
    remove: (id) => mutation(DELETE_ROUTE.method, buildPath(DELETE_ROUTE.path, { id })),
    removeAll: () => mutation(DELETE_ALL_ROUTE.method, DELETE_ALL_ROUTE.path),
  };
}
