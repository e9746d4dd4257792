import { describe, expect, it } from 'vitest';
import { NOTIFICATION_ROUTES } from '../contract.js';
import { createMemoryBroadcaster } from '../broadcast/memory-broadcaster.js';
import type { NotificationStorage } from '../store/notification-storage.js';
import { createNotificationsApi } from './create-notifications-api.js';
import { ENDPOINTS, allowedMethods, honoPath, withoutSuffix } from './endpoints.js';

describe('honoPath', () => {
  it('turns {name} segments into hono parameters, a suffixed one into a segment pattern', () => {
    expect(honoPath('/notification/notifications.json')).toBe('/notification/notifications.json');
    expect(honoPath('/notification/notifications/{id}/read.json')).toBe('/notification/notifications/:id/read.json');
    expect(honoPath('/notification/notifications/{id}.json')).toBe('/notification/notifications/:id{[^/]+\\.json}');
    expect(honoPath('/a/{x}+(y)')).toBe('/a/:x{[^/]+\\+\\(y\\)}');
  });

  it('withoutSuffix drops the suffix a segment pattern kept', () => {
    expect(withoutSuffix('n-1.json', '.json')).toBe('n-1');
    expect(withoutSuffix('n-1', '.json')).toBe('n-1');
  });
});

describe('ENDPOINTS, from the contract route table', () => {
  it('are the paths of the table, most specific first, each with its methods in table order', () => {
    expect(ENDPOINTS).toEqual([
      { path: '/notification/notifications.json', methods: ['GET', 'DELETE'] },
      { path: '/notification/notifications/unread.json', methods: ['GET'] },
      { path: '/notification/notifications/mark-all-read.json', methods: ['PATCH'] },
      { path: '/notification/notifications/:id/read.json', methods: ['PATCH'] },
      { path: '/notification/notifications/:id/unread.json', methods: ['PATCH'] },
      { path: '/notification/notifications/:id/archive.json', methods: ['PATCH'] },
      { path: '/notification/notifications/:id/unarchive.json', methods: ['PATCH'] },
      { path: '/notification/notifications/:id{[^/]+\\.json}', methods: ['GET', 'DELETE'] },
      { path: '/broadcasting/auth', methods: ['POST'] },
    ]);
    expect(ENDPOINTS.map(allowedMethods)).toContain('GET, DELETE, HEAD');
  });
});

describe('the API registers exactly the routes of the contract', () => {
  const store = { list: () => Promise.reject(new Error('unused')) } as unknown as NotificationStorage;
  const app = createNotificationsApi({ store, resolveUser: () => ({ id: 1 }), csrf: { token: () => 't' }, broadcaster: createMemoryBroadcaster() });

  it('one handler route per table entry, with its method and path, and no other', () => {
    // hono lists middleware (app.use, app.all) as ALL; every other entry is a route handler.
    const registered = app.routes.filter((route) => route.method !== 'ALL').map((route) => `${route.method} ${route.path}`);
    const fromTable = Object.values(NOTIFICATION_ROUTES).map((route) => `${route.method} ${honoPath(route.path)}`);
    expect(new Set(registered)).toEqual(new Set(fromTable));
    // One entry per route, plus one for the body-size limit in front of channel authorisation.
    expect(registered.filter((route) => route === `POST ${NOTIFICATION_ROUTES.channelAuth.path}`)).toHaveLength(2);
    expect(registered).toHaveLength(fromTable.length + 1);
  });
});
