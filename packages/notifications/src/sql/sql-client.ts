/** The whole database surface the SQL store needs; PGlite and node-postgres both fit behind it. */
export interface SqlClient {
  query<Row = Record<string, unknown>>(text: string, params?: readonly unknown[]): Promise<Row[]>;
  /** Runs `fn` on one connection inside BEGIN/COMMIT, rolling back if it throws. */
  transaction<T>(fn: (tx: Pick<SqlClient, 'query'>) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}
