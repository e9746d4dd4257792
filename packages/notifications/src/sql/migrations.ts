import type { SqlClient } from './sql-client.js';

export interface Migration {
  /** Stable id, recorded in `<schema>.notifications_migrations` once applied. */
  id: string;
  /** SQL for one schema; `{{schema}}` is replaced by the quoted schema name. */
  sql: string;
}

/** Applied in order; never edit one that has shipped, append a new one instead. */
export const migrations: readonly Migration[] = [
  {
    id: '0001_create_notifications',
    sql: `
      CREATE TABLE {{schema}}.notifications (
        id uuid PRIMARY KEY,
        -- tie-breaker for rows created in the same transaction (same now())
        seq bigint GENERATED ALWAYS AS IDENTITY,
        user_id text NOT NULL,
        type text NOT NULL,
        title text NOT NULL,
        message text,
        action_url text,
        icon text,
        icon_class text,
        actions jsonb NOT NULL DEFAULT '[]'::jsonb,
        data jsonb NOT NULL DEFAULT '{}'::jsonb,
        read_at timestamptz,
        created_at timestamptz NOT NULL DEFAULT now()
      );
      CREATE INDEX notifications_user_created_idx
        ON {{schema}}.notifications (user_id, created_at DESC, seq DESC);
      CREATE INDEX notifications_user_unread_idx
        ON {{schema}}.notifications (user_id, created_at DESC) WHERE read_at IS NULL;
    `,
  },
  {
    id: '0002_archived_at',
    sql: `
      ALTER TABLE {{schema}}.notifications ADD COLUMN archived_at timestamptz;
      -- archived rows never count as unread, so the unread index leaves them out
      DROP INDEX IF EXISTS {{schema}}.notifications_user_unread_idx;
      CREATE INDEX notifications_user_unread_idx
        ON {{schema}}.notifications (user_id, created_at DESC) WHERE read_at IS NULL AND archived_at IS NULL;
      -- the inbox (default lists) skips archived rows without visiting them
      CREATE INDEX notifications_user_inbox_idx
        ON {{schema}}.notifications (user_id, created_at DESC, seq DESC) WHERE archived_at IS NULL;
    `,
  },
];

/**
 * Brings `schema` up to date. Safe to call from several processes at once: an advisory lock
 * keyed on the schema serialises them, and applied ids are skipped.
 * Returns the ids applied by this call.
 */
export async function migrate(client: SqlClient, quotedSchema: string, list: readonly Migration[] = migrations): Promise<string[]> {
  return client.transaction(async (tx) => {
    await tx.query(`SELECT pg_advisory_xact_lock(hashtext($1))`, [`@org/notifications:${quotedSchema}`]);
    await tx.query(`CREATE SCHEMA IF NOT EXISTS ${quotedSchema}`);
    await tx.query(
      `CREATE TABLE IF NOT EXISTS ${quotedSchema}.notifications_migrations (id text PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())`,
    );
    const rows = await tx.query<{ id: string }>(`SELECT id FROM ${quotedSchema}.notifications_migrations`);
    const done = new Set(rows.map((r) => r.id));
    const applied: string[] = [];
    for (const m of list) {
      if (done.has(m.id)) continue;
      // Multi-statement text: run statement by statement so both drivers accept it with no params.
      for (const statement of splitStatements(m.sql.replaceAll('{{schema}}', quotedSchema))) {
        await tx.query(statement);
      }
      await tx.query(`INSERT INTO ${quotedSchema}.notifications_migrations (id) VALUES ($1)`, [m.id]);
      applied.push(m.id);
    }
    return applied;
  });
}

/** Our migrations hold no semicolons inside literals, so a plain split is enough. */
function splitStatements(sql: string): string[] {
  return sql
    .split(';')
    .map((s) => s.replace(/--[^\n]*/g, '').trim())
    .filter((s) => s.length > 0);
}
