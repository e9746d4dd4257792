import { z } from 'zod';
import { NotificationsError } from '../errors.js';
import type { ArchivedFilter, ReadStatus } from '../store/notification-storage.js';

/** Deepest page we serve; beyond it OFFSET scans get expensive and no bell needs them. */
export const MAX_PAGE = 10_000;

interface PageParams {
  page: number;
  limit: number;
  /** A previous page's `meta.next_cursor`; when given, `page` is not used. */
  before?: string;
}

export interface UnreadParams extends PageParams {
  type?: string;
}

export interface ListParams extends UnreadParams {
  status: ReadStatus;
  archived: ArchivedFilter;
}

// NUL and unpaired surrogates cannot be sent to PostgreSQL as text; no stored type holds them.
// eslint-disable-next-line no-control-regex
const UNSTORABLE = /\u0000|\p{Cs}/u;

function intParam(name: string, min: number, max: number, fallback: number) {
  return z
    .string()
    .optional()
    .transform((raw, ctx) => {
      if (raw === undefined) return fallback;
      const n = /^\d{1,9}$/.test(raw) ? Number(raw) : Number.NaN;
      if (!Number.isInteger(n) || n < min || n > max) {
        ctx.addIssue({ code: 'custom', message: `Invalid query parameter "${name}": expected an integer from ${min} to ${max}, got ${JSON.stringify(raw.slice(0, 100))}` });
        return z.NEVER;
      }
      return n;
    });
}

/** An enumerated parameter; absent or empty means `fallback`. */
function oneOf<const T extends string>(name: string, values: readonly T[], fallback: T) {
  return z
    .string()
    .optional()
    .transform((raw, ctx): T => {
      if (raw === undefined || raw === '') return fallback;
      if ((values as readonly string[]).includes(raw)) return raw as T;
      ctx.addIssue({ code: 'custom', message: `Invalid query parameter "${name}": expected ${values.length === 1 ? values[0] : `one of ${values.join(', ')}`}, got ${JSON.stringify(raw.slice(0, 100))}` });
      return z.NEVER;
    });
}

const type = z
  .string()
  .optional()
  .transform((raw, ctx) => {
    if (raw === undefined || raw === '') return undefined;
    if (raw.length > 255 || UNSTORABLE.test(raw)) {
      ctx.addIssue({ code: 'custom', message: 'Invalid query parameter "type": expected at most 255 characters, without NUL or unpaired surrogates' });
      return z.NEVER;
    }
    return raw;
  });

/** Opaque to clients; the store checks its shape. Bounded here so nothing unbounded reaches it. */
const before = z
  .string()
  .optional()
  .transform((raw, ctx) => {
    if (raw === undefined || raw === '') return undefined;
    if (raw.length > 64) {
      ctx.addIssue({ code: 'custom', message: 'Invalid query parameter "before": expected a cursor from a previous page (meta.next_cursor)' });
      return z.NEVER;
    }
    return raw;
  });

function schemas(defaultLimit: number, maxLimit: number) {
  const page = z.object({ page: intParam('page', 1, MAX_PAGE, 1), limit: intParam('limit', 1, maxLimit, defaultLimit), before });
  const unread = page.extend({
    type,
    // Accepted for symmetry with the list, but this endpoint only ever lists unread ones.
    status: oneOf('status', ['unread'], 'unread'),
  });
  const list = page.extend({
    status: oneOf('status', ['all', 'read', 'unread'], 'all'),
    type,
    archived: oneOf('archived', ['exclude', 'only', 'include'], 'exclude'),
  });
  return { unread, list };
}

/** Parses and validates query strings once, at the edge; errors name the parameter. */
export function createQueryParsers(defaultLimit: number, maxLimit: number) {
  const s = schemas(defaultLimit, maxLimit);
  const fail = (error: z.ZodError): never => {
    throw new NotificationsError('INVALID_PARAMETER', error.issues[0]?.message ?? 'Invalid query parameter', { status: 400 });
  };
  return {
    unread(query: Record<string, string>): UnreadParams {
      const r = s.unread.safeParse(query);
      if (!r.success) return fail(r.error);
      const { page, limit, type, before: cursor } = r.data;
      return { page, limit, ...(type === undefined ? {} : { type }), ...(cursor === undefined ? {} : { before: cursor }) };
    },
    list(query: Record<string, string>): ListParams {
      const r = s.list.safeParse(query);
      if (!r.success) return fail(r.error);
      const { type, before: cursor, ...rest } = r.data;
      return { ...rest, ...(type === undefined ? {} : { type }), ...(cursor === undefined ? {} : { before: cursor }) };
    },
  };
}
