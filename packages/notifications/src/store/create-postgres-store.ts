import type * as PgNamespace from 'pg';
import { z } from 'zod';
import { NotificationsError } from '../errors.js';
import { parseOptions } from '../options.js';
import { pgClient } from '../sql/pg-client.js';
import type { PgPoolLike } from '../sql/pg-client.js';
import type { NotificationStorage } from './notification-storage.js';
import { createSqlStore } from './sql-store.js';

type PgModule = typeof PgNamespace;

const optionsSchema = z
  .object({
    pool: z.custom<PgPoolLike>((v) => typeof v === 'object' && v !== null && typeof (v as PgPoolLike).connect === 'function', 'a pg.Pool').optional(),
    connectionString: z.string().regex(/^postgres(ql)?:\/\//, 'a postgres:// URL').optional(),
    max: z.number().int().min(1).max(100).optional(),
    schema: z.string().optional(),
    migrate: z.boolean().optional(),
  })
  .refine((o) => (o.pool === undefined) !== (o.connectionString === undefined), {
    message: 'needs exactly one of "pool" or "connectionString"',
  });

export interface PostgresStoreOptions {
  /** A node-postgres Pool owned by the host; the store never ends it. */
  pool?: PgPoolLike;
  /** Or a URL; the store then creates (and on close() ends) its own pool. Needs the `pg` package. */
  connectionString?: string;
  /** Pool size when the store creates the pool. Default 10. */
  max?: number;
  /** Postgres schema for the tables. Default `public`. */
  schema?: string;
  /** Apply pending migrations on start. Default true. */
  migrate?: boolean;
}

/** Production store on PostgreSQL through node-postgres; same SQL and migrations as PGlite. */
export async function createPostgresStore(options: PostgresStoreOptions): Promise<NotificationStorage> {
  const o = parseOptions(optionsSchema, options, 'createPostgresStore');
  let pool: PgPoolLike;
  const owned = o.pool === undefined;
  if (o.pool) {
    pool = o.pool;
  } else {
    let pg: PgModule;
    try {
      const mod = (await import('pg')) as PgModule & { default?: PgModule };
      pg = mod.default ?? mod;
    } catch (cause) {
      throw new NotificationsError('INVALID_OPTION', 'createPostgresStore: option "connectionString" needs the "pg" package; install it (npm i pg)', { cause });
    }
    const created = new pg.Pool({ connectionString: o.connectionString, max: o.max ?? 10 });
    // An idle client dying (server restart) emits 'error'; unhandled it would crash the host.
    // The next query reconnects or fails with its own error, so nothing is lost by ignoring it.
    created.on('error', () => {});
    pool = created as unknown as PgPoolLike;
  }
  const client = pgClient(pool, owned);
  try {
    return await createSqlStore({
      client,
      ...(o.schema === undefined ? {} : { schema: o.schema }),
      ...(o.migrate === undefined ? {} : { migrate: o.migrate }),
    });
  } catch (error) {
    await client.close();
    throw error;
  }
}
