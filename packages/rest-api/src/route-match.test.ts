import { describe, expect, it } from 'vitest';
import { endpoints } from './endpoints/index.js';
import { compileRoutes, matchRoute } from './route-match.js';

const routes = compileRoutes('', endpoints);
const prefixed = compileRoutes('/realtime', endpoints);

describe('matchRoute', () => {
  it('finds an endpoint by method and path and reports its pattern', () => {
    const match = matchRoute(routes, 'POST', '/apps/1/events');
    expect(match?.route.pattern).toBe('/apps/:appId/events');
    expect(match?.params).toEqual({ appId: '1' });
  });

  it('decodes path parameters', () => {
    const match = matchRoute(routes, 'GET', '/apps/1/channels/presence-a%20b/users');
    expect(match?.route.pattern).toBe('/apps/:appId/channels/:channelName/users');
    expect(match?.params).toEqual({ appId: '1', channelName: 'presence-a b' });
  });

  it('leaves other methods, unknown paths and paths a URL parser would rewrite to the hono app', () => {
    expect(matchRoute(routes, 'GET', '/apps/1/events')).toBeUndefined();
    expect(matchRoute(routes, 'OPTIONS', '/apps/1/events')).toBeUndefined();
    expect(matchRoute(routes, 'POST', '/apps/1/events/extra')).toBeUndefined();
    expect(matchRoute(routes, 'POST', '/apps//events')).toBeUndefined();
    expect(matchRoute(routes, 'POST', '/apps/1/../1/events')).toBeUndefined();
    expect(matchRoute(routes, 'POST', '/apps/app-1/users/%2E%2E/terminate_connections')).toBeUndefined();
    expect(matchRoute(routes, 'GET', '/apps/app-1/channels/%2e%2e')).toBeUndefined();
    expect(matchRoute(routes, 'GET', '/apps/1/channels/a\\b')).toBeUndefined();
    expect(matchRoute(routes, 'GET', '/apps/1/channels/%E0%A4%A')).toBeUndefined();
  });

  it('requires the deployment prefix when there is one', () => {
    expect(matchRoute(prefixed, 'POST', '/apps/1/events')).toBeUndefined();
    expect(matchRoute(prefixed, 'POST', '/realtime/apps/1/events')?.params).toEqual({ appId: '1' });
  });
});
