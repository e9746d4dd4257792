import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMemoryBroadcaster } from '../../src/broadcast/memory-broadcaster.js';
import type { ApiErrorCode } from '../../src/contract.js';
import type { NotificationStorage } from '../../src/store/notification-storage.js';
import { content } from '../../src/testing/store-conformance.js';
import { createNotificationsApi } from '../../src/api/create-notifications-api.js';

/**
 * Hostile requests against the real app on a real store: whatever arrives, the answer is JSON
 * with the right status (never a 500 or a thrown error), and a refused request changes nothing.
 * Runs are bounded (a few hundred requests in all) to keep the suite fast.
 */
export function runHostileInputSuite(openStore: () => Promise<NotificationStorage>): void {
  describe('notifications API under hostile input', () => {
    let store: NotificationStorage;
    let app: ReturnType<typeof createNotificationsApi>;
    const broadcaster = createMemoryBroadcaster({ key: 'k', secret: 's' });
    const ownIds: string[] = [];
    const foreignIds: string[] = [];

    beforeAll(async () => {
      store = await openStore();
      app = createNotificationsApi({ store, broadcaster, resolveUser: () => ({ id: 'me' }), csrf: { token: () => 'csrf' } });
      for (let i = 0; i < 3; i++) ownIds.push((await store.create({ ...content({ type: i === 0 ? 'a' : 'b' }), userId: 'me' })).id);
      for (let i = 0; i < 2; i++) foreignIds.push((await store.create({ ...content(), userId: 'other' })).id);
      await store.archive('me', ownIds[2]!);
    });
    afterAll(async () => {
      await store?.close();
    });

    /** Everything either user has, with its state: equal before and after a refused request. */
    const snapshot = async () => {
      const all = { page: 1, limit: 100, status: 'all', archived: 'include' } as const;
      return JSON.stringify([await store.list('me', all), await store.list('other', all), await store.unreadCount('me'), await store.unreadCount('other'), broadcaster.events.length]);
    };

    /** Sends the request and checks the answer is JSON of the expected shape; returns status and body. */
    const send = async (method: string, path: string, init: { headers?: Record<string, string>; body?: string } = {}) => {
      const res = await app.request(path, { method, headers: { 'X-CSRF-Token': 'csrf', ...init.headers }, ...(init.body === undefined ? {} : { body: init.body }) });
      expect(res.headers.get('content-type') ?? '').toContain('application/json');
      const body = (await res.json()) as Record<string, unknown>;
      if (res.status >= 400) expect(body).toEqual({ error: expect.any(String), code: expect.any(String) });
      expect(res.status).not.toBe(500);
      return { status: res.status, code: body.code as ApiErrorCode | undefined, body };
    };

    const hostileString = fc.oneof(
      fc.string({ unit: 'binary', maxLength: 30 }),
      fc.string({ unit: 'grapheme', maxLength: 10 }),
      fc.constantFrom('', '0', '-1', '1e3', '0x10', ' 1', '1 ', '１', 'NaN', '9'.repeat(40), 'unread', 'read', 'all', 'only', 'include', 'exclude', '%', '%00', '\0', '\ud800', 'x'.repeat(300), '__proto__', 'constructor', '1.2', '-1.0', '99999999999999999.9999999999999999999', '0.0'),
    );

    it('answers any query string on the list endpoints with 200 or 400 INVALID_PARAMETER naming a parameter', async () => {
      const before = await snapshot();
      const params = fc.array(fc.tuple(fc.oneof(fc.constantFrom('page', 'limit', 'status', 'type', 'archived', 'before', '__proto__', 'page[]'), fc.string({ maxLength: 8 })), hostileString), { maxLength: 5 });
      // Raw, possibly malformed percent-encoding as well as properly encoded values.
      const raw = fc.string({ unit: fc.constantFrom('%', '0', 'a', 'E', 'F', '=', '&', 'p', 'g', 'e', '+', 'D', '8'), maxLength: 20 });
      await fc.assert(
        fc.asyncProperty(fc.constantFrom('/notification/notifications.json', '/notification/notifications/unread.json'), fc.oneof(params.map((p) => new URLSearchParams(p).toString()), raw), async (path, query) => {
          const r = await send('GET', `${path}?${query}`);
          expect([200, 400]).toContain(r.status);
          if (r.status === 400) {
            expect(r.code).toBe('INVALID_PARAMETER');
            expect(r.body.error).toMatch(/"(page|limit|status|type|archived|before)"/);
          } else {
            expect(Object.keys(r.body).sort()).toEqual(['meta', 'notifications']);
          }
        }),
        {
          numRuns: 120,
          // Values PostgreSQL cannot take as text, and malformed escapes, always tried.
          examples: [
            ['/notification/notifications.json', 'type=%00'],
            ['/notification/notifications/unread.json', 'type=a%00b'],
            ['/notification/notifications.json', 'type=%ED%A0%80'],
            ['/notification/notifications.json', 'status=%00&archived=%00'],
            ['/notification/notifications/unread.json', 'page=%&limit=%zz'],
            ['/notification/notifications.json', 'before=99999999999999999.9999999999999999999'],
            ['/notification/notifications/unread.json', 'before=-99999999999999999.0'],
          ],
        },
      );
      expect(await snapshot()).toBe(before);
    });

    it('answers any id in a path with 404 or 405 JSON and changes nothing (never another user’s notification)', async () => {
      const before = await snapshot();
      const id = fc.oneof(hostileString, fc.uuid(), fc.constantFrom(...foreignIds), fc.constantFrom(...foreignIds).map((u) => u.toUpperCase()), fc.constantFrom(...foreignIds).map((u) => ` ${u}`));
      // Raw ids skip characters that would leave the path (/, \, ?, #); encoded ones keep everything.
      // encodeURIComponent refuses unpaired surrogates; the URL parser then encodes them as U+FFFD.
      const encode = (value: string): string => (/\p{Cs}/u.test(value) ? value.replace(/[/\\?#%]/g, '') : encodeURIComponent(value));
      const inPath = fc
        .tuple(id, fc.boolean())
        .map(([value, encoded]) => (encoded ? encode(value) : value.replace(/[/\\?#]/g, '')))
        // The two fixed names beside the ids are real endpoints (GET unread.json lists), not ids.
        .filter((segment) => segment !== 'unread' && segment !== 'mark-all-read');
      const route = fc.constantFrom(['GET', ''], ['DELETE', ''], ['PATCH', '/read'], ['PATCH', '/unread'], ['PATCH', '/archive'], ['PATCH', '/unarchive'], ['PUT', ''], ['POST', '/read']);
      const socket = fc.oneof(fc.constant(undefined), fc.string({ unit: fc.constantFrom('1', '.', 'a', ' ', '9'), maxLength: 12 }));
      await fc.assert(
        fc.asyncProperty(inPath, route, socket, async (segment, [method, action], socketId) => {
          let url: string;
          try {
            url = new URL(`http://localhost/notification/notifications/${segment}${action}.json`).pathname;
          } catch {
            return; // not a request a client could send
          }
          const r = await send(method, url, socketId === undefined ? {} : { headers: { 'X-Socket-ID': socketId } });
          expect([404, 405]).toContain(r.status);
          expect(r.code).toBe(r.status === 404 ? 'NOT_FOUND' : 'METHOD_NOT_ALLOWED');
        }),
        { numRuns: 150 },
      );
      expect(await snapshot()).toBe(before);
    });

    it('answers any /broadcasting/auth body with JSON 200, 400, 403 or 413, signing only the own channel', async () => {
      const own = 'private-App.Model.Entity.User.me';
      const value = fc.oneof(hostileString, fc.constantFrom('1.2', '123.456', own, 'private-App.Model.Entity.User.other'), fc.anything({ maxDepth: 2 }));
      const fields = fc.dictionary(fc.constantFrom('socket_id', 'channel_name', '__proto__', 'x'), value, { maxKeys: 4 });
      const jsonText = fc.oneof(
        fields.map((f) => JSON.stringify(f) ?? 'null'),
        fc.json({ maxDepth: 3 }),
        // Duplicate keys: the last one wins, as JSON.parse decides.
        fc.tuple(value, value).map(([a, b]) => `{"socket_id":"1.2","channel_name":${JSON.stringify(a) ?? '1'},"channel_name":${JSON.stringify(b) ?? '1'}}`),
        fc.string({ unit: 'binary', maxLength: 40 }),
      );
      const asText = (v: unknown): string => (typeof v === 'string' ? v : (JSON.stringify(v) ?? ''));
      const formText = fc.oneof(
        fields.map((f) => new URLSearchParams(Object.entries(f).map(([k, v]): [string, string] => [k, asText(v)])).toString()),
        fc.string({ unit: 'binary', maxLength: 40 }),
      );
      const big = fc.constant(`socket_id=1.2&channel_name=${'a'.repeat(9000)}`);
      const request = fc.oneof(
        fc.tuple(fc.constant('application/json'), jsonText),
        fc.tuple(fc.constantFrom('application/x-www-form-urlencoded', 'application/x-www-form-urlencoded; charset=utf-8'), fc.oneof(formText, big)),
        fc.tuple(fc.constantFrom('multipart/form-data', 'multipart/form-data; boundary=x', 'text/plain', 'application/json; charset=utf-8', ''), fc.oneof(jsonText, formText)),
      );
      await fc.assert(
        fc.asyncProperty(request, async ([type, body]) => {
          const r = await send('POST', '/broadcasting/auth', { headers: type ? { 'content-type': type } : {}, body });
          expect([200, 400, 403, 413]).toContain(r.status);
          if (r.status === 200) expect(r.body).toEqual({ auth: expect.stringMatching(/^k:[0-9a-f]{64}$/) });
          if (r.status === 403) expect(r.code).toBe('CHANNEL_FORBIDDEN');
          if (r.status === 413) expect(r.code).toBe('PAYLOAD_TOO_LARGE');
          if (r.status === 400) expect(r.code).toBe('INVALID_PARAMETER');
        }),
        { numRuns: 150 },
      );
    });
  });
}
