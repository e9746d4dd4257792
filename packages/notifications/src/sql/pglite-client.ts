import type { PGlite } from '@electric-sql/pglite';
import type { SqlClient } from './sql-client.js';

type PGliteLike = Pick<PGlite, 'query' | 'transaction' | 'close'>;

/**
 * Wraps a PGlite instance (WASM Postgres in this process). `owned` decides whether close()
 * shuts the database down; pass false when the host shares the instance.
 */
export function pgliteClient(db: PGliteLike, owned: boolean): SqlClient {
  return {
    async query<Row>(text: string, params: readonly unknown[] = []) {
      const result = await db.query<Row>(text, [...params]);
      return result.rows;
    },
    transaction(fn) {
      return db.transaction((tx) =>
        fn({
          async query<Row>(text: string, params: readonly unknown[] = []) {
            return (await tx.query<Row>(text, [...params])).rows;
          },
        }),
      );
    },
    async close() {
      if (owned) await db.close();
    },
  };
}
