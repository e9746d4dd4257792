import { PGlite } from '@electric-sql/pglite';
import * as vitest from 'vitest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NotificationsError } from '../errors.js';
import { randomUUID } from 'node:crypto';
import { migrate, migrations } from '../sql/migrations.js';
import { pgliteClient } from '../sql/pglite-client.js';
import { createPgliteStore } from './create-pglite-store.js';
import { content, runStoreConformance, uniqueSchema } from '../testing/store-conformance.js';

runStoreConformance(vitest, 'PGlite (embedded, default)', () => createPgliteStore());

describe('createPgliteStore', () => {
  let db: PGlite;
  beforeAll(async () => {
    db = await PGlite.create();
  });
  afterAll(async () => {
    await db.close();
  });

  it('applies migrations once and records them, so a second start is a no-op', async () => {
    const schema = uniqueSchema('mig');
    const first = await createPgliteStore({ db, schema });
    await first.create({ ...content(), userId: 'u1' });
    await first.close();
    const second = await createPgliteStore({ db, schema });
    // The data survived the second migrate run and the shared db is still open after close().
    expect(await second.unreadCount('u1')).toBe(1);
    const recorded = await db.query<{ id: string }>(`SELECT id FROM "${schema}".notifications_migrations ORDER BY id`);
    expect(recorded.rows.map((r) => r.id)).toEqual(migrations.map((m) => m.id));
  });

  it('creates the indexes for (user_id, created_at), for the inbox and for unread rows (archived ones left out)', async () => {
    const schema = uniqueSchema('idx');
    await createPgliteStore({ db, schema });
    const rows = await db.query<{ indexname: string; indexdef: string }>(`SELECT indexname, indexdef FROM pg_indexes WHERE schemaname = $1 ORDER BY indexname`, [schema]);
    const defs = rows.rows.map((r) => r.indexdef).join('\n');
    expect(defs).toMatch(/\(user_id, created_at DESC, seq DESC\)/);
    expect(defs).toMatch(/notifications_user_unread_idx .*\(user_id, created_at DESC\) WHERE \(\(read_at IS NULL\) AND \(archived_at IS NULL\)\)/);
    expect(defs).toMatch(/notifications_user_inbox_idx .*\(user_id, created_at DESC, seq DESC\) WHERE \(archived_at IS NULL\)/);
  });

  it('upgrades a table created before archiving: rows keep their state and are not archived', async () => {
    const schema = uniqueSchema('upg');
    const first = migrations.filter((m) => m.id === '0001_create_notifications');
    await migrate(pgliteClient(db, false), `"${schema}"`, first);
    await db.query(`INSERT INTO "${schema}".notifications (id, user_id, type, title) VALUES ($1, 'old', 'Legacy', 'Before archiving')`, [randomUUID()]);
    const store = await createPgliteStore({ db, schema });
    expect(await store.unreadCount('old')).toBe(1);
    expect((await store.list('old', { page: 1, limit: 10, status: 'all' })).items).toEqual([
      expect.objectContaining({ title: 'Before archiving', read_at: null, archived_at: null }),
    ]);
  });

  it('rejects a schema name that is not a plain identifier', async () => {
    await expect(createPgliteStore({ db, schema: 'x"; DROP SCHEMA public; --' })).rejects.toMatchObject({ code: 'INVALID_OPTION', message: expect.stringContaining('"schema"') });
  });

  it('rejects unknown option types with a message naming the key', async () => {
    const error = await createPgliteStore({ db, dataDir: 42 as unknown as string }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NotificationsError);
    expect((error as NotificationsError).message).toContain('"dataDir"');
  });

  it('fails with STORE_CLOSED after close()', async () => {
    const store = await createPgliteStore({ db, schema: uniqueSchema('closed') });
    await store.close();
    await expect(store.unreadCount('u')).rejects.toMatchObject({ code: 'STORE_CLOSED' });
  });
});
