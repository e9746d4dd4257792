import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ClusterState } from './cluster-state.js';

const member = (userId: string, userInfo = '{}') => ({ userId, userInfo });

describe('ClusterState', () => {
  it('enforces the presence member limit, always admitting more sockets of a present user', () => {
    const state = new ClusterState();
    expect(state.joinPresence('app', 'presence-a', '1', member('u1'), 1)).toMatchObject({ status: 'joined', firstForUser: true });
    expect(state.joinPresence('app', 'presence-a', '2', member('u2'), 1)).toEqual({ status: 'full' });
    expect(state.isPresenceMember('app', 'presence-a', 'u2')).toBe(false);
    expect(state.joinPresence('app', 'presence-a', '3', member('u1', '{"v":2}'), 1)).toEqual({
      status: 'joined',
      firstForUser: false,
      members: [member('u1', '{"v":2}')],
    });
    expect(state.leavePresence('app', 'presence-a', '1', 'u1')).toBe(false);
    expect(state.leavePresence('app', 'presence-a', '3', 'u1')).toBe(true);
    expect(state.leavePresence('app', 'presence-a', '3', 'u1')).toBe(false);
    expect(state.isEmpty).toBe(true);
  });

  it('records a presence socket without a limit and settles the join against one afterwards', () => {
    const state = new ClusterState();
    expect(state.addPresenceSocket('app', 'presence-a', '1', member('u1'))).toBe(true);
    expect(state.addPresenceSocket('app', 'presence-a', '2', member('u2'))).toBe(true);
    expect(state.settlePresenceJoin('app', 'presence-a', '2', 'u2', true, 1)).toEqual({ status: 'full' });
    expect(state.presenceMembers('app', 'presence-a')).toEqual([member('u1')]);
    expect(state.addPresenceSocket('app', 'presence-a', '3', member('u1'))).toBe(false);
    expect(state.settlePresenceJoin('app', 'presence-a', '3', 'u1', false, 1)).toEqual({ status: 'joined', firstForUser: false, members: [member('u1')] });
  });

  it('forgets empty apps, channels and users, so it does not grow with churn', () => {
    const state = new ClusterState();
    for (let i = 0; i < 1_000; i++) {
      state.addConnection(`app-${i}`, 's');
      state.addSubscription(`app-${i}`, `ch-${i}`, 's');
      state.joinPresence(`app-${i}`, `presence-${i}`, 's', member('u'), 10);
      state.leavePresence(`app-${i}`, `presence-${i}`, 's', 'u');
      state.removeSubscription(`app-${i}`, `ch-${i}`, 's');
      state.removeConnection(`app-${i}`, 's');
    }
    expect(state.isEmpty).toBe(true);
  });

  it('removes a closed socket with its channels and reports only what it held', () => {
    const state = new ClusterState();
    state.addConnection('app', 'a');
    state.addSubscription('app', 'solo', 'a');
    state.addSubscription('app', 'shared', 'a');
    state.addSubscription('app', 'shared', 'b');
    state.addSubscription('app', 'presence-p', 'a');
    state.joinPresence('app', 'presence-p', 'a', member('alice'), 10);
    const removal = state.removeConnection('app', 'a', [
      { channel: 'never', presenceUserId: undefined },
      { channel: 'solo', presenceUserId: undefined },
      { channel: 'shared', presenceUserId: undefined },
      { channel: 'presence-p', presenceUserId: 'alice' },
      { channel: 'presence-other', presenceUserId: 'alice' },
    ]);
    expect(removal).toEqual({ vacated: ['solo', 'presence-p'], membersLeft: [{ channel: 'presence-p', userId: 'alice' }] });
    expect(state.connectionCount('app')).toBe(0);
    expect(Object.fromEntries(state.channels('app'))).toEqual({ shared: 1 });
  });

  it('lists its whole content for a scaler that writes it elsewhere', () => {
    const state = new ClusterState();
    state.addConnection('app', 'a');
    state.addSubscription('app', 'room', 'a');
    state.joinPresence('app', 'presence-p', 'a', member('alice', '{"n":1}'), 10);
    state.joinPresence('app', 'presence-p', 'b', member('alice', '{"n":2}'), 10);
    expect([...state.connectionEntries()].map(([appId, sockets]) => [appId, [...sockets]])).toEqual([['app', ['a']]]);
    expect([...state.subscriptionEntries()].map(([appId, channel, sockets]) => [appId, channel, [...sockets]])).toEqual([['app', 'room', ['a']]]);
    expect([...state.presenceEntries()].map(([appId, channel, userId, user]) => [appId, channel, userId, user.userInfo, [...user.sockets]])).toEqual([
      ['app', 'presence-p', 'alice', '{"n":2}', ['a', 'b']],
    ]);
  });

  it('keeps at most maxCachedEvents cached events, making room by dropping expired ones', () => {
    let now = 0;
    const max = 100;
    const state = new ClusterState({ now: () => now, maxCachedEvents: max });
    for (let i = 0; i < max; i++) state.storeCachedEvent('app', `cache-${i}`, 'f', i === 0 ? 1 : 60);
    state.storeCachedEvent('app', 'cache-over', 'f', 60);
    expect(state.cachedEventCount).toBe(max);
    expect(state.cachedEvent('app', 'cache-over')).toBeUndefined();
    state.storeCachedEvent('app', 'cache-1', 'updated', 60); // replacing an entry is always allowed
    expect(state.cachedEvent('app', 'cache-1')?.frame).toBe('updated');
    // Two seconds later cache-0 has expired: the next new channel takes its place.
    now = 2_000;
    state.storeCachedEvent('app', 'cache-late', 'late', 60);
    expect(state.cachedEvent('app', 'cache-late')).toEqual({ frame: 'late', ttl: 60 });
    expect(state.cachedEventCount).toBe(max);
  });

  it('reports the time to live in whole seconds and forgets expired events', () => {
    let now = 0;
    const state = new ClusterState({ now: () => now });
    state.storeCachedEvent('app', 'cache-x', 'f', 10);
    state.storeCachedEvent('app', 'cache-y', 'f', 5);
    now = 9_500;
    expect(state.cachedEvent('app', 'cache-x')).toEqual({ frame: 'f', ttl: 1 });
    state.pruneCache();
    expect(state.cachedEventCount).toBe(1);
    now = 10_000;
    expect(state.cachedEvent('app', 'cache-x')).toBeUndefined();
    expect(state.cachedEventCount).toBe(0);
  });

  // A reference model as plain sets of tuples; the state must agree with it after any sequence of calls.
  it('agrees with a plain-set model under any sequence of calls, and is empty once every socket is gone', () => {
    const socket = fc.constantFrom('s1', 's2', 's3');
    const channel = fc.constantFrom('c1', 'presence-c2');
    const user = fc.constantFrom('u1', 'u2');
    const op = fc.oneof(
      fc.record({ kind: fc.constant('connect' as const), socket }),
      fc.record({ kind: fc.constant('subscribe' as const), socket, channel }),
      fc.record({ kind: fc.constant('unsubscribe' as const), socket, channel }),
      fc.record({ kind: fc.constant('join' as const), socket, channel, user, max: fc.integer({ min: 0, max: 3 }) }),
      fc.record({ kind: fc.constant('leave' as const), socket, channel, user }),
      fc.record({ kind: fc.constant('close' as const), socket }),
    );
    fc.assert(
      fc.property(fc.array(op, { maxLength: 60 }), (ops) => {
        const state = new ClusterState();
        const conns = new Set<string>();
        const subs = new Set<string>(); // channel|socket
        const presence = new Map<string, string>(); // channel|socket -> user
        const users = (ch: string) => new Set([...presence].filter(([key]) => key.startsWith(`${ch}|`)).map(([, u]) => u));
        for (const o of ops) {
          if (o.kind === 'connect') {
            conns.add(o.socket);
            expect(state.addConnection('app', o.socket)).toBe(conns.size);
          } else if (o.kind === 'subscribe') {
            subs.add(`${o.channel}|${o.socket}`);
            state.addSubscription('app', o.channel, o.socket);
          } else if (o.kind === 'unsubscribe') {
            subs.delete(`${o.channel}|${o.socket}`);
            state.removeSubscription('app', o.channel, o.socket);
          } else if (o.kind === 'join') {
            // A socket joins a channel as one user (the engine's rule); only such calls are made.
            const key = `${o.channel}|${o.socket}`;
            const current = presence.get(key);
            if (current !== undefined && current !== o.user) continue;
            const present = users(o.channel).has(o.user);
            const full = !present && users(o.channel).size >= o.max;
            const answer = state.joinPresence('app', o.channel, o.socket, member(o.user), o.max);
            if (full) expect(answer).toEqual({ status: 'full' });
            else {
              presence.set(key, o.user);
              expect(answer).toMatchObject({ status: 'joined', firstForUser: !present });
            }
          } else if (o.kind === 'leave') {
            const key = `${o.channel}|${o.socket}`;
            const was = presence.get(key) === o.user;
            if (was) presence.delete(key);
            expect(state.leavePresence('app', o.channel, o.socket, o.user)).toBe(was && !users(o.channel).has(o.user));
          } else {
            conns.delete(o.socket);
            const held = ['c1', 'presence-c2'].map((ch) => ({ channel: ch, presenceUserId: presence.get(`${ch}|${o.socket}`) }));
            for (const ch of ['c1', 'presence-c2']) {
              subs.delete(`${ch}|${o.socket}`);
              presence.delete(`${ch}|${o.socket}`);
            }
            state.removeConnection('app', o.socket, held);
          }
          expect(state.connectionCount('app')).toBe(conns.size);
          for (const ch of ['c1', 'presence-c2']) {
            expect(state.subscriptionCount('app', ch)).toBe([...subs].filter((key) => key.startsWith(`${ch}|`)).length);
            expect(state.presenceMembers('app', ch).map((m) => m.userId).sort()).toEqual([...users(ch)].sort());
          }
        }
        for (const s of ['s1', 's2', 's3']) {
          state.removeConnection('app', s, ['c1', 'presence-c2'].map((ch) => ({ channel: ch, presenceUserId: presence.get(`${ch}|${s}`) })));
        }
        expect(state.isEmpty).toBe(true);
      }),
      { numRuns: 300 },
    );
  });
});
