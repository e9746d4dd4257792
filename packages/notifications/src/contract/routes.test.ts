import { describe, expect, expectTypeOf, it } from 'vitest';
import { MARK_READ_ROUTE, NOTIFICATION_ROUTES, buildPath } from './routes.js';
import type { RouteParams } from './routes.js';

describe('buildPath', () => {
  it('is the template itself for a route without parameters', () => {
    expect(buildPath(NOTIFICATION_ROUTES.list.path)).toBe('/notification/notifications.json');
    expect(buildPath(NOTIFICATION_ROUTES.channelAuth.path)).toBe('/broadcasting/auth');
  });

  it('fills in {id}, URL-encoded so that an id cannot reach another path', () => {
    expect(buildPath(NOTIFICATION_ROUTES.markRead.path, { id: 'n-1' })).toBe('/notification/notifications/n-1/read.json');
    expect(buildPath(NOTIFICATION_ROUTES.get.path, { id: '../x?y#z é' })).toBe('/notification/notifications/..%2Fx%3Fy%23z%20%C3%A9.json');
  });

  it('types the parameters from the template', () => {
    expectTypeOf<RouteParams<'/a/{id}/b/{kind}.json'>>().toEqualTypeOf<[params: { readonly id: string; readonly kind: string }]>();
    expectTypeOf<RouteParams<'/a.json'>>().toEqualTypeOf<[]>();
    // @ts-expect-error: markRead needs { id } (without it, there is nothing to read the id from)
    expect(() => buildPath(NOTIFICATION_ROUTES.markRead.path)).toThrowError(TypeError);
    // @ts-expect-error: a missing name; typed callers cannot get here
    expect(buildPath(NOTIFICATION_ROUTES.markRead.path, { other: 'x' })).toBe('/notification/notifications/undefined/read.json');
    // @ts-expect-error: and only { id }
    buildPath(NOTIFICATION_ROUTES.markRead.path, { id: 'n-1', other: 'x' });
    // @ts-expect-error: a route without parameters takes none
    buildPath(NOTIFICATION_ROUTES.list.path, { id: 'n-1' });
  });
});

describe('NOTIFICATION_ROUTES', () => {
  it('holds the routes also exported one by one (a bundler keeps only those a client uses)', () => {
    expect(NOTIFICATION_ROUTES.markRead).toBe(MARK_READ_ROUTE);
    expect(Object.values(NOTIFICATION_ROUTES)).toHaveLength(11);
    expect(new Set(Object.values(NOTIFICATION_ROUTES).map((route) => `${route.method} ${route.path}`)).size).toBe(11);
  });

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
