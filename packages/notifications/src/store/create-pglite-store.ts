import { PGlite } from '@electric-sql/pglite';
import { z } from 'zod';
import { parseOptions } from '../options.js';
import { pgliteClient } from '../sql/pglite-client.js';
import type { NotificationStorage } from './notification-storage.js';
import { createSqlStore } from './sql-store.js';

const optionsSchema = z.object({
  db: z.custom<PGlite>((v) => typeof v === 'object' && v !== null && typeof (v as PGlite).query === 'function', 'a PGlite instance').optional(),
  dataDir: z.string().min(1).optional(),
  schema: z.string().optional(),
  migrate: z.boolean().optional(),
});

export interface PgliteStoreOptions {
  /** Share an existing PGlite instance; the store then never closes it. */
  db?: PGlite;
  /** Where PGlite keeps its files (e.g. `./data/notifications`); in memory when omitted. */
  dataDir?: string;
  /** Postgres schema for the tables. Default `public`. */
  schema?: string;
  /** Apply pending migrations on start. Default true. */
  migrate?: boolean;
}

/** The embedded default: real Postgres compiled to WASM, in this process, no server needed. */
export async function createPgliteStore(options: PgliteStoreOptions = {}): Promise<NotificationStorage> {
  const o = parseOptions(optionsSchema, options, 'createPgliteStore');
  const owned = o.db === undefined;
  const db = o.db ?? (o.dataDir === undefined ? await PGlite.create() : await PGlite.create(o.dataDir));
  return createSqlStore({
    client: pgliteClient(db, owned),
    ...(o.schema === undefined ? {} : { schema: o.schema }),
    ...(o.migrate === undefined ? {} : { migrate: o.migrate }),
  });
}
