import { describe, expect, expectTypeOf, it } from 'vitest';
import { NOTIFICATION_ROUTES, routePath } from './routes.js';
import type { RouteParams } from './routes.js';

describe('routePath', () => {
  it('is the template itself for a route without parameters', () => {
    expect(routePath(NOTIFICATION_ROUTES.list)).toBe('/notification/notifications.json');
    expect(routePath(NOTIFICATION_ROUTES.channelAuth)).toBe('/broadcasting/auth');
  });

  it('fills in {id}, URL-encoded so that an id cannot reach another path', () => {
    expect(routePath(NOTIFICATION_ROUTES.markRead, { id: 'n-1' })).toBe('/notification/notifications/n-1/read.json');
    expect(routePath(NOTIFICATION_ROUTES.get, { id: '../x?y#z é' })).toBe('/notification/notifications/..%2Fx%3Fy%23z%20%C3%A9.json');
  });

  it('refuses a parameter without a value', () => {
    const untyped = routePath as (route: { method: 'GET'; path: string }, params?: Record<string, string>) => string;
    expect(() => untyped(NOTIFICATION_ROUTES.get)).toThrowError(new TypeError('/notification/notifications/{id}.json: no value for {id}'));
    expect(() => untyped(NOTIFICATION_ROUTES.get, { other: 'x' })).toThrowError(TypeError);
  });

  it('types the parameters from the template', () => {
    expectTypeOf<RouteParams<'/a/{id}/b/{kind}.json'>>().toEqualTypeOf<[params: { readonly id: string; readonly kind: string }]>();
    expectTypeOf<RouteParams<'/a.json'>>().toEqualTypeOf<[]>();
    // @ts-expect-error: markRead needs { id }
    expect(() => routePath(NOTIFICATION_ROUTES.markRead)).toThrowError(TypeError);
  });
});

describe('NOTIFICATION_ROUTES', () => {
  it('lists routes that share a path together, more specific paths first', () => {
    const paths: string[] = Object.values(NOTIFICATION_ROUTES).map((route) => route.path);
    const firstSeen = [...new Set(paths)];
    // Routes of one path are adjacent: the paths in order, without repeats once left.
    expect(paths.filter((path, i) => path !== paths[i - 1])).toEqual(firstSeen);
    // The item pattern `{id}.json` comes after every fixed name it would also match.
    const item = firstSeen.indexOf('/notification/notifications/{id}.json');
    for (const fixed of ['/notification/notifications/unread.json', '/notification/notifications/mark-all-read.json']) expect(firstSeen.indexOf(fixed)).toBeLessThan(item);
  });
});
