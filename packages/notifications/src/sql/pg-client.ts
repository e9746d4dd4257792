import type { SqlClient } from './sql-client.js';

/** The slice of a node-postgres `Pool` we use; a real `pg.Pool` satisfies it. */
export interface PgPoolLike {
  query(text: string, params?: unknown[]): Promise<{ rows: unknown[] }>;
  connect(): Promise<{
    query(text: string, params?: unknown[]): Promise<{ rows: unknown[] }>;
    release(err?: Error | boolean): void;
  }>;
  end(): Promise<void>;
}

/** Wraps a node-postgres pool. `owned` decides whether close() ends the pool. */
export function pgClient(pool: PgPoolLike, owned: boolean): SqlClient {
  return {
    async query<Row>(text: string, params: readonly unknown[] = []) {
      return (await pool.query(text, [...params])).rows as Row[];
    },
    async transaction(fn) {
      const conn = await pool.connect();
      try {
        await conn.query('BEGIN');
        const result = await fn({
          async query<Row>(text: string, params: readonly unknown[] = []) {
            return (await conn.query(text, [...params])).rows as Row[];
          },
        });
        await conn.query('COMMIT');
        conn.release();
        return result;
      } catch (error) {
        // A failed ROLLBACK means the connection is broken: destroy it instead of reusing it.
        try {
          await conn.query('ROLLBACK');
          conn.release();
        } catch (rollbackError) {
          conn.release(rollbackError instanceof Error ? rollbackError : true);
        }
        throw error;
      }
    },
    async close() {
      if (owned) await pool.end();
    },
  };
}
