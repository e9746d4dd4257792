import { z } from 'zod';
import { NotificationsError } from '../errors.js';
import type { ReadStatus } from '../store/notification-store.js';

/** Deepest page we serve; beyond it OFFSET scans get expensive and no bell needs them. */
export const MAX_PAGE = 10_000;

export interface PageParams {
  page: number;
  limit: number;
}

export interface ListParams extends PageParams {
  status: ReadStatus;
  type?: string;
}

function intParam(name: string, min: number, max: number, fallback: number) {
  return z
    .string()
    .optional()
    .transform((raw, ctx) => {
      if (raw === undefined) return fallback;
      const n = /^\d{1,9}$/.test(raw) ? Number(raw) : Number.NaN;
      if (!Number.isInteger(n) || n < min || n > max) {
        ctx.addIssue({ code: 'custom', message: `Invalid query parameter "${name}": expected an integer from ${min} to ${max}, got ${JSON.stringify(raw)}` });
        return z.NEVER;
      }
      return n;
    });
}

function schemas(defaultLimit: number, maxLimit: number) {
  const page = z.object({ page: intParam('page', 1, MAX_PAGE, 1), limit: intParam('limit', 1, maxLimit, defaultLimit) });
  const list = page.extend({
    status: z
      .string()
      .optional()
      .transform((raw, ctx) => {
        if (raw === undefined || raw === '') return 'all' as const;
        if (raw === 'all' || raw === 'read' || raw === 'unread') return raw;
        ctx.addIssue({ code: 'custom', message: `Invalid query parameter "status": expected one of all, read, unread, got ${JSON.stringify(raw)}` });
        return z.NEVER;
      }),
    type: z
      .string()
      .optional()
      .transform((raw, ctx) => {
        if (raw === undefined || raw === '') return undefined;
        if (raw.length > 255) {
          ctx.addIssue({ code: 'custom', message: 'Invalid query parameter "type": expected at most 255 characters' });
          return z.NEVER;
        }
        return raw;
      }),
  });
  return { page, list };
}

/** Parses and validates query strings once, at the edge; errors name the parameter. */
export function createQueryParsers(defaultLimit: number, maxLimit: number) {
  const s = schemas(defaultLimit, maxLimit);
  const fail = (error: z.ZodError): never => {
    throw new NotificationsError('INVALID_PARAMETER', error.issues[0]?.message ?? 'Invalid query parameter', { status: 400 });
  };
  return {
    page(query: Record<string, string>): PageParams {
      const r = s.page.safeParse(query);
      return r.success ? r.data : fail(r.error);
    },
    list(query: Record<string, string>): ListParams {
      const r = s.list.safeParse(query);
      if (!r.success) return fail(r.error);
      const { type, ...rest } = r.data;
      return type === undefined ? rest : { ...rest, type };
    },
  };
}
