import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createApp } from './app.js';
import { createStaticAppProvider } from './app-provider.js';
import { ErrorCode } from './close-codes.js';
import { createLocalScaler } from './local-scaler.js';
import { localNodeOf, RealtimeServer } from './realtime-server.js';
import { signUser } from './signing.js';
import { MemoryTransport, settle } from './testing/memory-transport.js';
import { readWatchlist } from './watchlist.js';

const app = createApp({ id: 'p', key: 'prop-key', secret: 'prop-secret', enableWatchlistEvents: true, maxWatchlistSize: 5, maxUserIdLength: 8 });

const userId = fc.oneof(
  fc.constantFrom('a', 'b', 'c', 'a\u0000b', '\u0000', 'é', '😀', ''),
  fc.string({ maxLength: 10 }),
  fc.string({ unit: 'grapheme', maxLength: 10 }),
  fc.string({ unit: 'binary', maxLength: 10 }),
);
/** Watchlists a hostile client could sign: huge, nested, wrong types, unicode, NUL, duplicates. */
const hostileWatchlist = fc.oneof(
  fc.array(userId, { maxLength: 12 }),
  fc.array(fc.constantFrom('a', 'b', 'c'), { maxLength: 200 }),
  fc.array(fc.string({ minLength: 1, maxLength: 3 }), { minLength: 300, maxLength: 2_000 }),
  fc.array(fc.oneof(userId, fc.anything({ maxDepth: 2 })), { maxLength: 8 }),
  fc.array(fc.array(userId, { maxLength: 3 }), { maxLength: 3 }),
  fc.anything({ maxDepth: 3 }),
  fc.constant(undefined),
);

describe('reading a hostile watchlist', () => {
  it('never throws; an accepted one is distinct valid user ids within the limit, a refused one says why', () => {
    fc.assert(
      fc.property(hostileWatchlist, (watchlist) => {
        const reading = readWatchlist(app, { id: 'x', watchlist });
        if (!reading.ok) {
          expect(reading.reason).toMatch(/^user_data\.watchlist/);
          return;
        }
        expect(reading.userIds.length).toBeLessThanOrEqual(app.maxWatchlistSize);
        expect(new Set(reading.userIds).size).toBe(reading.userIds.length);
        for (const id of reading.userIds) {
          expect(typeof id).toBe('string');
          expect(id.length).toBeGreaterThan(0);
          expect(id.length).toBeLessThanOrEqual(app.maxUserIdLength);
          expect((watchlist as unknown[]).includes(id)).toBe(true);
        }
      }),
      { numRuns: 500 },
    );
  });

  it('collapses duplicates before the limit counts them', () => {
    expect(readWatchlist(app, { watchlist: ['a', 'b', 'a', 'b', 'c', 'c', 'a'] })).toEqual({ ok: true, userIds: ['a', 'b', 'c'] });
    expect(readWatchlist(app, { watchlist: ['a', 'b', 'c', 'd', 'e', 'f'] })).toMatchObject({ ok: false });
  });

  it('is ignored when the app has watchlist events off', () => {
    const off = createApp({ id: 'q', key: 'k', secret: 's' });
    fc.assert(
      fc.property(hostileWatchlist, (watchlist) => {
        expect(readWatchlist(off, { watchlist })).toEqual({ ok: true, userIds: [] });
      }),
    );
  });

  it('through the engine: signed in with a well-formed answer, or refused with 4009 and nothing recorded', async () => {
    await fc.assert(
      fc.asyncProperty(hostileWatchlist, async (watchlist) => {
        const scaler = createLocalScaler();
        const server = new RealtimeServer({ apps: createStaticAppProvider([app]), scaler });
        const transport = new MemoryTransport(server);
        const socket = await transport.connect({ appKey: 'prop-key' });
        const userData = JSON.stringify({ id: 'me', watchlist });
        socket.receive({ event: 'pusher:signin', data: { user_data: userData, auth: signUser(app, socket.socketId, userData) } });
        await settle();
        const reading = readWatchlist(app, JSON.parse(userData) as object);
        if (reading.ok) {
          expect(socket.closed).toBeUndefined();
          expect(socket.events('pusher:signin_success')).toHaveLength(1);
          const status = socket.events('pusher_internal:watchlist_events');
          expect(status).toHaveLength(reading.userIds.length === 0 ? 0 : 1);
          if (status[0]) {
            const { events } = JSON.parse(status[0].data as string) as { events: { name: string; user_ids: string[] }[] };
            expect(events.flatMap((event) => event.user_ids).sort()).toEqual([...reading.userIds].sort());
          }
          expect(await scaler.onlineUsers(app.id, ['me'])).toEqual(['me']);
        } else {
          expect(socket.closed?.code).toBe(ErrorCode.Unauthorized);
          expect(socket.events('pusher:signin_success')).toEqual([]);
          expect(await scaler.onlineUsers(app.id, ['me'])).toEqual([]);
          expect(localNodeOf(server).watchlists.watchers).toBe(0);
        }
      }),
      { numRuns: 150 },
    );
  });
});
