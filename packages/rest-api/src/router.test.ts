import { describe, expect, it } from 'vitest';
import { requestTarget } from './request-target.js';
import { createRouter } from './router.js';

const patterns = ['/apps/:appId/events', '/apps/:appId/channels', '/apps/:appId/channels/:channelName', '/apps/:appId/channels/:channelName/users', '/up'];
const router = createRouter('', patterns.map((pattern) => ({ pattern, route: pattern })));
const prefixed = createRouter('/realtime', patterns.map((pattern) => ({ pattern, route: pattern })));

describe('createRouter', () => {
  it('finds the route of a path, whatever the method, with its parameters', () => {
    expect(router.match('/apps/1/events')).toEqual({ route: '/apps/:appId/events', params: { appId: '1' } });
    expect(router.match('/apps/1/channels/news/users')).toEqual({ route: '/apps/:appId/channels/:channelName/users', params: { appId: '1', channelName: 'news' } });
    expect(router.match('/up')).toEqual({ route: '/up', params: {} });
  });

  it('decodes parameters as hono does: %2F stays a character of the segment, a bad escape is kept as sent', () => {
    expect(router.match('/apps/1/channels/presence-a%20b/users')?.params).toEqual({ appId: '1', channelName: 'presence-a b' });
    expect(router.match('/apps/1/channels/a%2Fb')?.params).toEqual({ appId: '1', channelName: 'a/b' });
    expect(router.match('/apps/1/channels/%E0%A4%A')?.params).toEqual({ appId: '1', channelName: '%E0%A4%A' });
    expect(router.match('/apps/1/channels/%2541')?.params).toEqual({ appId: '1', channelName: '%41' });
  });

  it('matches literal segments after percent-decoding the path, as hono does', () => {
    expect(router.match('/apps/1/ev%65nts')?.route).toBe('/apps/:appId/events');
    expect(router.match('/%75p')?.route).toBe('/up');
  });

  it('finds nothing for unknown paths, empty segments, extra or missing segments and a trailing slash', () => {
    for (const path of ['/', '/nothing', '/apps/1/events/extra', '/apps//events', '/apps/1', '/apps/1/events/', '/up/', '//up', '/UP']) {
      expect(router.match(path), path).toBeUndefined();
    }
  });

  it('requires the deployment prefix when there is one', () => {
    expect(prefixed.match('/apps/1/events')).toBeUndefined();
    expect(prefixed.match('/realtime/apps/1/events')?.params).toEqual({ appId: '1' });
    expect(prefixed.match('/realtime/up')?.route).toBe('/up');
  });
});

describe('requestTarget', () => {
  it('leaves a path a URL parser would keep exactly as sent, and its query raw', () => {
    for (const path of ['/apps/1/events', '/apps/1/channels/a%2Fb', "/a-b_c~d!$&'()*+,;=:@[]^|", '/x%zz']) {
      expect(requestTarget(path, 'a=1&b=%2C+c')).toEqual({ path, query: 'a=1&b=%2C+c' });
    }
  });

  it('rewrites what a URL parser rewrites: dot segments (also encoded), backslashes, characters it encodes, #', () => {
    expect(requestTarget('/apps/1/../2/events', '').path).toBe('/apps/2/events');
    expect(requestTarget('/apps/1/%2e%2E/2/events', '').path).toBe('/apps/2/events');
    expect(requestTarget('/apps/1/channels/a\\b', '').path).toBe('/apps/1/channels/a/b');
    expect(requestTarget('/apps/1/channels/{é}', 'x=é"').path).toBe('/apps/1/channels/%7B%C3%A9%7D');
    expect(requestTarget('/up#/metrics', 'a=1#b')).toEqual({ path: '/up%23/metrics', query: 'a=1%23b' });
    expect(requestTarget('up', '').path).toBe('/up');
  });

  it('keeps a segment that only starts with a dot', () => {
    expect(requestTarget('/apps/1/channels/.hidden', '').path).toBe('/apps/1/channels/.hidden');
  });
});
