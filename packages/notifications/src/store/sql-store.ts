import { randomUUID } from 'node:crypto';
import { normalizeContent } from '../content-schema.js';
import { NotificationsError } from '../errors.js';
import type { NotificationAction, NotificationIcon, NotificationResource } from '../resource.js';
import { quoteIdentifier } from '../sql/identifier.js';
import { migrate } from '../sql/migrations.js';
import type { SqlClient } from '../sql/sql-client.js';
import type { ChangeResult, ListQuery, ListResult, NewNotification, NotificationStorage } from './notification-storage.js';

export interface SqlStoreOptions {
  client: SqlClient;
  /** Postgres schema holding the tables; created if missing. Default `public`. */
  schema?: string;
  /** Apply pending migrations before the store is returned. Default true. */
  migrate?: boolean;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** True when `id` can be a notification id; anything else is simply "not found". */
export function isNotificationId(id: string): boolean {
  return UUID.test(id);
}

interface Row {
  id: string;
  type: string;
  title: string;
  message: string | null;
  action_url: string | null;
  icon: string | null;
  icon_class: string | null;
  actions: unknown;
  data: unknown;
  read_at: Date | string | null;
  archived_at: Date | string | null;
  created_at: Date | string;
}

const COLUMNS = 'id, type, title, message, action_url, icon, icon_class, actions, data, read_at, archived_at, created_at';

/**
 * A list position: the last row's creation time in microseconds and its insertion sequence, the
 * list's own order (`created_at DESC, seq DESC`). Opaque to clients; two integers joined by a dot.
 */
const POSITION = `(extract(epoch from created_at) * 1000000)::bigint::text AS position_us, seq::text AS position_seq`;
// At most 18 digits each: every created_at from year 1 to 9999 (±2.6e17 µs) and any seq fit, and
// nothing out of bigint's range reaches PostgreSQL (a 19-digit seq answered 500).
const CURSOR = /^(-?\d{1,18})\.(\d{1,18})$/;

function cursorOf(row: { position_us: string; position_seq: string }): string {
  return `${row.position_us}.${row.position_seq}`;
}


function iso(value: Date | string): string {
  return (value instanceof Date ? value : new Date(value)).toISOString();
}

/** A valid instant as ISO 8601, or INVALID_NOTIFICATION naming `createdAt`. */
function timestamp(value: unknown): string {
  const date = value instanceof Date ? value : typeof value === 'string' ? new Date(value) : null;
  const iso = date && !Number.isNaN(date.getTime()) ? date.toISOString() : '';
  // Years 1 to 9999 only: PostgreSQL and ISO 8601 agree on those.
  if (!/^(?!0000)\d{4}-/.test(iso)) throw new NotificationsError('INVALID_NOTIFICATION', 'Invalid notification at "createdAt": must be a Date or an ISO 8601 string');
  return iso;
}

function json<T>(value: unknown, fallback: T): T {
  if (typeof value === 'string') return JSON.parse(value) as T;
  return (value ?? fallback) as T;
}

function toResource(row: Row): NotificationResource {
  return {
    id: row.id,
    type: row.type,
    title: row.title,
    message: row.message,
    action_url: row.action_url,
    icon: row.icon as NotificationIcon | null,
    icon_class: row.icon_class,
    actions: json<NotificationAction[]>(row.actions, []),
    data: json<Record<string, unknown>>(row.data, {}),
    read_at: row.read_at === null ? null : iso(row.read_at),
    archived_at: row.archived_at === null ? null : iso(row.archived_at),
    created_at: iso(row.created_at),
  };
}

/** The one SQL implementation of NotificationStorage, shared by the PGlite and PostgreSQL drivers. */
export async function createSqlStore(options: SqlStoreOptions): Promise<NotificationStorage> {
  const { client } = options;
  const schema = quoteIdentifier(options.schema ?? 'public', 'schema');
  const table = `${schema}.notifications`;
  if (options.migrate !== false) await migrate(client, schema);

  let closed = false;
  const open = (): void => {
    if (closed) throw new NotificationsError('STORE_CLOSED', 'The notification store was closed');
  };

  const unreadCount = async (userId: string): Promise<number> => {
    open();
    const rows = await client.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${table} WHERE user_id = $1 AND read_at IS NULL AND archived_at IS NULL`, [userId]);
    return rows[0]?.n ?? 0;
  };

  /** One idempotent state change: `set` where `when` holds, else the row as it is. */
  const change = async (userId: string, id: string, set: string, when: string): Promise<ChangeResult | null> => {
    open();
    if (!isNotificationId(id)) return null;
    const updated = await client.query<Row>(`UPDATE ${table} SET ${set} WHERE user_id = $1 AND id = $2 AND ${when} RETURNING ${COLUMNS}`, [userId, id]);
    if (updated[0]) return { notification: toResource(updated[0]), changed: true };
    const existing = await client.query<Row>(`SELECT ${COLUMNS} FROM ${table} WHERE user_id = $1 AND id = $2`, [userId, id]);
    return existing[0] ? { notification: toResource(existing[0]), changed: false } : null;
  };

  return {
    async create(input: NewNotification) {
      open();
      const id = input.id ?? randomUUID();
      if (typeof id !== 'string' || !isNotificationId(id)) throw new NotificationsError('INVALID_NOTIFICATION', `Notification id must be a UUID; got ${JSON.stringify(id)}`);
      if (typeof input.userId !== 'string' || input.userId.length === 0 || input.userId.includes('\0')) {
        throw new NotificationsError('INVALID_NOTIFICATION', 'Invalid notification at "userId": must be a non-empty string without NUL characters');
      }
      const createdAt = input.createdAt === undefined ? null : timestamp(input.createdAt);
      // The same rules as the channels (safe URLs first of all), for hosts that call the store directly.
      const content = normalizeContent(input, '');
      const rows = await client.query<Row>(
        `INSERT INTO ${table} (id, user_id, type, title, message, action_url, icon, icon_class, actions, data, created_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9::jsonb, $10::jsonb, COALESCE($11::timestamptz, now())) RETURNING ${COLUMNS}`,
        [
          id,
          input.userId,
          content.type,
          content.title,
          content.message,
          content.action_url,
          content.icon,
          content.icon_class,
          JSON.stringify(content.actions),
          JSON.stringify(content.data),
          createdAt,
        ],
      );
      return toResource(rows[0] as Row);
    },

    async list(userId: string, query: ListQuery): Promise<ListResult> {
      open();
      const where = ['user_id = $1'];
      const params: unknown[] = [userId];
      if (query.status === 'read') where.push('read_at IS NOT NULL');
      if (query.status === 'unread') where.push('read_at IS NULL');
      // An archived notification is set aside: out of default lists and of the unread count.
      if (query.archived === 'only') where.push('archived_at IS NOT NULL');
      else if (query.archived !== 'include') where.push('archived_at IS NULL');
      if (query.type !== undefined) {
        params.push(query.type);
        where.push(`type = $${params.length}`);
      }
      const filter = where.join(' AND ');
      const pageWhere = [filter];
      const pageParams = [...params];
      let offset = (query.page - 1) * query.limit;
      if (query.before !== undefined) {
        const cursor = CURSOR.exec(query.before);
        if (!cursor) throw new NotificationsError('INVALID_PARAMETER', 'Invalid query parameter "before": expected a cursor from a previous page (meta.next_cursor)');
        pageParams.push(cursor[1], cursor[2]);
        pageWhere.push(`((extract(epoch from created_at) * 1000000)::bigint, seq) < ($${pageParams.length - 1}::bigint, $${pageParams.length}::bigint)`);
        offset = 0;
      }
      // One row more than asked tells whether another page follows.
      const [countRows, rows] = await Promise.all([
        client.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${table} WHERE ${filter}`, params),
        client.query<Row & { position_us: string; position_seq: string }>(
          `SELECT ${COLUMNS}, ${POSITION} FROM ${table} WHERE ${pageWhere.join(' AND ')} ORDER BY created_at DESC, seq DESC LIMIT $${pageParams.length + 1} OFFSET $${pageParams.length + 2}`,
          [...pageParams, query.limit + 1, offset],
        ),
      ]);
      const page = rows.slice(0, query.limit);
      const last = page.at(-1);
      return { items: page.map(toResource), total: countRows[0]?.n ?? 0, nextCursor: last ? cursorOf(last) : null, hasMore: rows.length > query.limit };
    },

    async get(userId, id) {
      open();
      if (!isNotificationId(id)) return null;
      const rows = await client.query<Row>(`SELECT ${COLUMNS} FROM ${table} WHERE user_id = $1 AND id = $2`, [userId, id]);
      return rows[0] ? toResource(rows[0]) : null;
    },

    markRead: (userId, id) => change(userId, id, 'read_at = now()', 'read_at IS NULL'),
    markUnread: (userId, id) => change(userId, id, 'read_at = NULL', 'read_at IS NOT NULL'),
    archive: (userId, id) => change(userId, id, 'archived_at = now()', 'archived_at IS NULL'),
    unarchive: (userId, id) => change(userId, id, 'archived_at = NULL', 'archived_at IS NOT NULL'),

    async markAllRead(userId) {
      open();
      const rows = await client.query<{ id: string }>(`UPDATE ${table} SET read_at = now() WHERE user_id = $1 AND read_at IS NULL AND archived_at IS NULL RETURNING id`, [userId]);
      return rows.length;
    },

    async delete(userId, id) {
      open();
      if (!isNotificationId(id)) return false;
      const rows = await client.query<{ id: string }>(`DELETE FROM ${table} WHERE user_id = $1 AND id = $2 RETURNING id`, [userId, id]);
      return rows.length > 0;
    },

    async deleteAll(userId) {
      open();
      const rows = await client.query<{ id: string }>(`DELETE FROM ${table} WHERE user_id = $1 RETURNING id`, [userId]);
      return rows.length;
    },

    unreadCount,

    async close() {
      if (closed) return;
      closed = true;
      await client.close();
    },
  };
}
