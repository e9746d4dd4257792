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

const BASE = '/notification/notifications';

export function createHttpNotificationApi(options: HttpNotificationApiOptions = {}): NotificationApi {
  const apiBase = (options.apiBase ?? '').replace(/\/+$/, '');
  const doFetch = options.fetch ?? ((input, init) => globalThis.fetch(input, init));
  const csrfToken = options.csrfToken ?? (() => readCsrfToken());
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  if (!Number.isFinite(timeoutMs) || timeoutMs <= 0) throw new NotificationBellError('INVALID_OPTION', `timeoutMs must be a positive number of milliseconds, got ${String(timeoutMs)}.`);

  async function request(method: string, path: string): Promise<Record<string, unknown>> {
    const headers: Record<string, string> = { Accept: 'application/json', ...options.headers?.() };
    if (method !== 'GET') {
      const token = csrfToken();
      if (token) headers['X-CSRF-Token'] = token;
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

  function mutation(body: Record<string, unknown>): MutationResult {
    return { unreadCount: readUnreadCount(body.meta) };
  }

  const item = (id: string) => `${BASE}/${encodeURIComponent(id)}`;

  return {
    async list({ page, limit, filter = 'all', before }: PageRequest): Promise<NotificationPage> {
      const query = `page=${page}&limit=${limit}${before === undefined ? '' : `&before=${encodeURIComponent(before)}`}`;
      const path = filter === 'unread' ? `${BASE}/unread.json?${query}` : `${BASE}.json?${query}&status=all`;
      const body = await request('GET', path);
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
    async markRead(id) {
      return mutation(await request('PATCH', `${item(id)}/read.json`));
    },
    async markUnread(id) {
      return mutation(await request('PATCH', `${item(id)}/unread.json`));
    },
    async archive(id) {
      return mutation(await request('PATCH', `${item(id)}/archive.json`));
    },
    async markAllRead() {
      return mutation(await request('PATCH', `${BASE}/mark-all-read.json`));
    },
    async remove(id) {
      return mutation(await request('DELETE', `${item(id)}.json`));
    },
    async removeAll() {
      return mutation(await request('DELETE', `${BASE}.json`));
    },
  };
}
