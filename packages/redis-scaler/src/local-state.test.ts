import { describe, expect, it } from 'vitest';
import { LocalState, maxLocalCachedEvents } from './local-state.js';

describe('local state (the answer during an outage)', () => {
  it('enforces the presence member limit on what this node knows', () => {
    const state = new LocalState();
    expect(state.joinPresenceLimited('app', 'presence-a', '1', { userId: 'u1', userInfo: '{}' }, 1)).toMatchObject({ status: 'joined', firstForUser: true });
    expect(state.joinPresenceLimited('app', 'presence-a', '2', { userId: 'u2', userInfo: '{}' }, 1)).toEqual({ status: 'full' });
    expect(state.joinPresenceLimited('app', 'presence-a', '3', { userId: 'u1', userInfo: '{"v":2}' }, 1)).toEqual({
      status: 'joined',
      firstForUser: false,
      members: [{ userId: 'u1', userInfo: '{"v":2}' }],
    });
    expect(state.leavePresence('app', 'presence-a', '1', 'u1')).toBe(false);
    expect(state.leavePresence('app', 'presence-a', '3', 'u1')).toBe(true);
    expect(state.leavePresence('app', 'presence-a', '3', 'u1')).toBe(false);
  });

  it('forgets empty apps and channels so it does not grow with churn', () => {
    const state = new LocalState();
    for (let i = 0; i < 1_000; i++) {
      state.addConnection(`app-${i}`, 's');
      state.addSubscription(`app-${i}`, `ch-${i}`, 's');
      state.joinPresence(`app-${i}`, `presence-${i}`, 's', { userId: 'u', userInfo: '{}' });
      state.leavePresence(`app-${i}`, `presence-${i}`, 's', 'u');
      state.removeSubscription(`app-${i}`, `ch-${i}`, 's');
      state.removeConnection(`app-${i}`, 's');
    }
    expect(state.connections.size + state.subscriptions.size + state.presence.size).toBe(0);
  });

  it('keeps at most maxLocalCachedEvents cached events, making room by dropping expired ones', () => {
    const state = new LocalState();
    for (let i = 0; i < maxLocalCachedEvents; i++) state.storeCachedEvent('app', `cache-${i}`, 'f', i === 0 ? 1 : 60, 0);
    state.storeCachedEvent('app', 'cache-over', 'f', 60, 0);
    expect(state.cacheSize).toBe(maxLocalCachedEvents);
    expect(state.cachedEvent('app', 'cache-over', 0)).toBeUndefined();
    state.storeCachedEvent('app', 'cache-1', 'updated', 60, 0); // replacing an entry is always allowed
    expect(state.cachedEvent('app', 'cache-1', 0)?.frame).toBe('updated');
    // Two seconds later cache-0 has expired: the next new channel takes its place.
    state.storeCachedEvent('app', 'cache-late', 'late', 60, 2_000);
    expect(state.cachedEvent('app', 'cache-late', 2_000)).toEqual({ frame: 'late', ttl: 60 });
    expect(state.cacheSize).toBe(maxLocalCachedEvents);
  });

  it('reports the time to live in whole seconds and drops expired events', () => {
    const state = new LocalState();
    state.storeCachedEvent('app', 'cache-x', 'f', 10, 0);
    expect(state.cachedEvent('app', 'cache-x', 9_500)).toEqual({ frame: 'f', ttl: 1 });
    expect(state.cachedEvent('app', 'cache-x', 10_000)).toBeUndefined();
    expect(state.cacheSize).toBe(0);
  });
});
