import type { ClusterMessage, Scaler } from '../scaler.js';
import type { TestRunner } from './test-runner.js';

export interface ScalerConformanceOptions {
  /** Creates a fresh scaler (one node). Called several times per test for multi-node cases when `multiNode` is true. */
  create(): Promise<Scaler>;
  /** True when scalers from `create()` share state and a bus (Redis); false for the in-memory one. */
  multiNode: boolean;
  /** A fresh app id per test keeps tests apart on a shared backend. */
  appId?: () => string;
}

let counter = 0;

/**
 * The behaviour every scaler must have. The in-memory scaler runs it in this
 * package; `@org/redis-scaler` (and any third-party scaler) runs it too.
 */
export function runScalerConformance(runner: TestRunner, name: string, options: ScalerConformanceOptions): void {
  const { describe, expect, it, afterEach } = runner;
  describe(`${name} scaler conformance`, () => {
    const created: Scaler[] = [];
    const make = async () => {
      const scaler = await options.create();
      created.push(scaler);
      return scaler;
    };
    const appId = options.appId ?? (() => `conformance-${process.pid}-${Date.now()}-${++counter}`);
    afterEach(async () => {
      await Promise.all(created.splice(0).map((scaler) => scaler.close()));
    });

    it('counts connections per app and forgets removed ones', async () => {
      const scaler = await make();
      const app = appId();
      expect(await scaler.addConnection(app, '1.1')).toBe(1);
      expect(await scaler.addConnection(app, '1.2')).toBe(2);
      await scaler.removeConnection(app, '1.1');
      expect(await scaler.connectionCount(app)).toBe(1);
      expect(await scaler.connectionCount(appId())).toBe(0);
    });

    it('reports subscription counts after each change and lists occupied channels', async () => {
      const scaler = await make();
      const app = appId();
      expect(await scaler.addSubscription(app, 'room', '1.1')).toBe(1);
      expect(await scaler.addSubscription(app, 'room', '1.2')).toBe(2);
      expect(await scaler.addSubscription(app, 'other', '1.1')).toBe(1);
      expect(await scaler.removeSubscription(app, 'room', '1.1')).toBe(1);
      expect(await scaler.subscriptionCount(app, 'room')).toBe(1);
      expect(Object.fromEntries(await scaler.channels(app))).toEqual({ room: 1, other: 1 });
      expect(await scaler.removeSubscription(app, 'other', '1.1')).toBe(0);
      expect([...(await scaler.channels(app)).keys()]).toEqual(['room']);
    });

    it('counts a presence user once however many sockets it has', async () => {
      const scaler = await make();
      const app = appId();
      const alice = { userId: 'alice', userInfo: '{"name":"Alice"}' };
      const first = await scaler.joinPresence(app, 'presence-room', '1.1', alice, 100);
      expect(first).toMatchObject({ status: 'joined', firstForUser: true });
      const second = await scaler.joinPresence(app, 'presence-room', '1.2', alice, 100);
      expect(second).toMatchObject({ status: 'joined', firstForUser: false });
      expect(await scaler.userCount(app, 'presence-room')).toBe(1);
      expect(await scaler.presenceMembers(app, 'presence-room')).toEqual([alice]);
      if (scaler.isPresenceMember) {
        expect(await scaler.isPresenceMember(app, 'presence-room', 'alice')).toBe(true);
        expect(await scaler.isPresenceMember(app, 'presence-room', 'bob')).toBe(false);
      }
      expect(await scaler.leavePresence(app, 'presence-room', '1.1', 'alice')).toBe(false);
      expect(await scaler.leavePresence(app, 'presence-room', '1.2', 'alice')).toBe(true);
      expect(await scaler.userCount(app, 'presence-room')).toBe(0);
    });

    it('refuses a new presence user when the channel is full but admits more sockets of a present user', async () => {
      const scaler = await make();
      const app = appId();
      await scaler.joinPresence(app, 'presence-full', '1.1', { userId: 'a', userInfo: '{}' }, 2);
      await scaler.joinPresence(app, 'presence-full', '1.2', { userId: 'b', userInfo: '{}' }, 2);
      expect(await scaler.joinPresence(app, 'presence-full', '1.3', { userId: 'c', userInfo: '{}' }, 2)).toEqual({ status: 'full' });
      expect(await scaler.joinPresence(app, 'presence-full', '1.4', { userId: 'a', userInfo: '{}' }, 2)).toMatchObject({ status: 'joined' });
    });

    it('keeps the last cached event of a channel with its time to live', async () => {
      const scaler = await make();
      const app = appId();
      expect(await scaler.cachedEvent(app, 'cache-prices')).toBeUndefined();
      await scaler.storeCachedEvent(app, 'cache-prices', '{"event":"a"}', 60);
      await scaler.storeCachedEvent(app, 'cache-prices', '{"event":"b"}', 60);
      const cached = await scaler.cachedEvent(app, 'cache-prices');
      expect(cached?.frame).toBe('{"event":"b"}');
      expect(cached?.ttl).toBeGreaterThan(55);
      expect(cached?.ttl).toBeLessThanOrEqual(60);
    });

    it('removes a closed socket with all its channels in one call and reports what it vacated and who left', async () => {
      const scaler = await make();
      const app = appId();
      const alice = { userId: 'alice', userInfo: '{}' };
      await scaler.addConnection(app, '1.1');
      await scaler.addConnection(app, '1.2');
      for (const channel of ['solo', 'shared', 'presence-a', 'presence-b']) await scaler.addSubscription(app, channel, '1.1');
      await scaler.addSubscription(app, 'shared', '1.2');
      await scaler.joinPresence(app, 'presence-a', '1.1', alice, 10);
      await scaler.joinPresence(app, 'presence-b', '1.1', alice, 10);
      await scaler.addSubscription(app, 'presence-b', '1.2');
      await scaler.joinPresence(app, 'presence-b', '1.2', alice, 10);

      const removal = await scaler.removeConnection(app, '1.1', [
        { channel: 'never-joined', presenceUserId: undefined },
        { channel: 'presence-never-joined', presenceUserId: 'alice' },
        { channel: 'solo', presenceUserId: undefined },
        { channel: 'shared', presenceUserId: undefined },
        { channel: 'presence-a', presenceUserId: 'alice' },
        { channel: 'presence-b', presenceUserId: 'alice' },
      ]);
      // Only channels the socket really was in can be vacated by its removal.
      expect(removal.vacated.sort()).toEqual(['presence-a', 'solo']);
      expect(removal.membersLeft).toEqual([{ channel: 'presence-a', userId: 'alice' }]);
      expect(await scaler.connectionCount(app)).toBe(1);
      expect(Object.fromEntries(await scaler.channels(app))).toEqual({ shared: 1, 'presence-b': 1 });
      expect(await scaler.presenceMembers(app, 'presence-a')).toEqual([]);
      expect(await scaler.presenceMembers(app, 'presence-b')).toEqual([alice]);
    });

    it('lets a socket that left rejoin as the same user: present again, first for the user, counted once', async () => {
      const scaler = await make();
      const app = appId();
      const alice = { userId: 'alice', userInfo: '{}' };
      await scaler.joinPresence(app, 'presence-rejoin', '1.1', alice, 10);
      expect(await scaler.leavePresence(app, 'presence-rejoin', '1.1', 'alice')).toBe(true);
      expect(await scaler.joinPresence(app, 'presence-rejoin', '1.1', alice, 10)).toEqual({ status: 'joined', firstForUser: true, members: [alice] });
      expect(await scaler.userCount(app, 'presence-rejoin')).toBe(1);
      expect(await scaler.presenceMembers(app, 'presence-rejoin')).toEqual([alice]);
    });

    it('counts a socket that joins twice as the same user once, so one leave removes the user', async () => {
      const scaler = await make();
      const app = appId();
      const alice = { userId: 'alice', userInfo: '{}' };
      expect(await scaler.joinPresence(app, 'presence-twice', '1.1', alice, 10)).toMatchObject({ status: 'joined', firstForUser: true });
      expect(await scaler.joinPresence(app, 'presence-twice', '1.1', alice, 10)).toEqual({ status: 'joined', firstForUser: false, members: [alice] });
      expect(await scaler.userCount(app, 'presence-twice')).toBe(1);
      expect(await scaler.leavePresence(app, 'presence-twice', '1.1', 'alice')).toBe(true);
      expect(await scaler.userCount(app, 'presence-twice')).toBe(0);
      expect(await scaler.presenceMembers(app, 'presence-twice')).toEqual([]);
    });

    it('ignores a leave of a socket that is not there: false, and nobody else loses their place', async () => {
      const scaler = await make();
      const app = appId();
      const alice = { userId: 'alice', userInfo: '{}' };
      await scaler.joinPresence(app, 'presence-absent', '1.1', alice, 10);
      expect(await scaler.leavePresence(app, 'presence-absent', '1.2', 'alice')).toBe(false);
      expect(await scaler.leavePresence(app, 'presence-absent', '1.1', 'bob')).toBe(false);
      expect(await scaler.leavePresence(app, 'presence-nobody', '1.1', 'alice')).toBe(false);
      expect(await scaler.userCount(app, 'presence-absent')).toBe(1);
      expect(await scaler.presenceMembers(app, 'presence-absent')).toEqual([alice]);
      expect(await scaler.leavePresence(app, 'presence-absent', '1.1', 'alice')).toBe(true);
    });

    it('removes nothing of other sockets when a socket that held nothing is removed with channels', async () => {
      const scaler = await make();
      const app = appId();
      const alice = { userId: 'alice', userInfo: '{}' };
      await scaler.addConnection(app, '1.1');
      await scaler.addSubscription(app, 'presence-kept', '1.1');
      await scaler.joinPresence(app, 'presence-kept', '1.1', alice, 10);
      const removal = await scaler.removeConnection(app, '1.9', [{ channel: 'presence-kept', presenceUserId: 'alice' }]);
      expect(removal).toEqual({ vacated: [], membersLeft: [] });
      expect(await scaler.connectionCount(app)).toBe(1);
      expect(await scaler.subscriptionCount(app, 'presence-kept')).toBe(1);
      expect(await scaler.presenceMembers(app, 'presence-kept')).toEqual([alice]);
    });

    it('tells a signed-in user\'s first and last socket, however many it has, and which users are online', async () => {
      const scaler = await make();
      const app = appId();
      expect(await scaler.onlineUsers(app, ['u'])).toEqual([]);
      expect(await scaler.signIn(app, 'u', '1.1')).toBe(true);
      expect(await scaler.signIn(app, 'u', '1.2')).toBe(false);
      expect(await scaler.signIn(app, 'u', '1.1')).toBe(false);
      expect(await scaler.signIn(app, 'v', '1.3')).toBe(true);
      expect((await scaler.onlineUsers(app, ['u', 'w', 'v'])).sort()).toEqual(['u', 'v']);
      expect(await scaler.signOut(app, 'u', '1.1')).toBe(false);
      expect(await scaler.signOut(app, 'u', '1.9')).toBe(false);
      expect(await scaler.signOut(app, 'w', '1.2')).toBe(false);
      expect(await scaler.onlineUsers(app, ['u'])).toEqual(['u']);
      expect(await scaler.signOut(app, 'u', '1.2')).toBe(true);
      expect(await scaler.signOut(app, 'u', '1.2')).toBe(false);
      expect(await scaler.onlineUsers(app, ['u', 'v'])).toEqual(['v']);
      expect(await scaler.onlineUsers(appId(), ['v'])).toEqual([]);
    });

    it('removes a closed socket\'s sign-in with it and says when that was the user\'s last', async () => {
      const scaler = await make();
      const app = appId();
      for (const socketId of ['1.1', '1.2', '1.3']) await scaler.addConnection(app, socketId);
      await scaler.signIn(app, 'u', '1.1');
      await scaler.signIn(app, 'u', '1.2');
      await scaler.addSubscription(app, 'room', '1.1');
      const first = await scaler.removeConnection(app, '1.1', [{ channel: 'room', presenceUserId: undefined }], 'u');
      expect(first.userWentOffline ?? false).toBe(false);
      expect(first.vacated).toEqual(['room']);
      // A socket that never signed in as the user takes nobody offline.
      expect((await scaler.removeConnection(app, '1.3', [], 'u')).userWentOffline ?? false).toBe(false);
      expect(await scaler.onlineUsers(app, ['u'])).toEqual(['u']);
      expect((await scaler.removeConnection(app, '1.2', [], 'u')).userWentOffline).toBe(true);
      expect(await scaler.onlineUsers(app, ['u'])).toEqual([]);
      expect(await scaler.connectionCount(app)).toBe(0);
    });

    it('keeps apps apart', async () => {
      const scaler = await make();
      const [one, two] = [appId(), appId()];
      await scaler.addSubscription(one, 'shared', '1.1');
      await scaler.joinPresence(one, 'presence-shared', '1.1', { userId: 'u', userInfo: '{}' }, 10);
      expect(await scaler.subscriptionCount(two, 'shared')).toBe(0);
      expect(await scaler.userCount(two, 'presence-shared')).toBe(0);
    });

    if (options.multiNode) {
      it('delivers published messages to the other nodes but not back to the sender', async () => {
        const [a, b] = [await make(), await make()];
        const receivedByA: ClusterMessage[] = [];
        const receivedByB: ClusterMessage[] = [];
        await a.start((message) => receivedByA.push(message));
        await b.start((message) => receivedByB.push(message));
        const message: ClusterMessage = { type: 'broadcast', appId: appId(), channel: 'c', frame: '{"event":"x"}' };
        a.publish(message);
        await expect.poll(() => receivedByB.length, { timeout: 2_000 }).toBe(1);
        expect(receivedByB[0]).toEqual(message);
        expect(receivedByA).toEqual([]);
      });

      it('shares presence across nodes: the second node sees the first node\'s user', async () => {
        const [a, b] = [await make(), await make()];
        const app = appId();
        await a.joinPresence(app, 'presence-x', '1.1', { userId: 'u1', userInfo: '{}' }, 10);
        const joined = await b.joinPresence(app, 'presence-x', '2.1', { userId: 'u1', userInfo: '{}' }, 10);
        expect(joined).toMatchObject({ status: 'joined', firstForUser: false });
        expect(await b.userCount(app, 'presence-x')).toBe(1);
        expect(await a.addConnection(app, '1.1')).toBe(1);
        expect(await b.addConnection(app, '2.1')).toBe(2);
      });

      it('counts a user\'s sign-ins across nodes: online at the first anywhere, offline after the last anywhere', async () => {
        const [a, b] = [await make(), await make()];
        const app = appId();
        expect(await a.signIn(app, 'u', '1.1')).toBe(true);
        expect(await b.signIn(app, 'u', '2.1')).toBe(false);
        expect(await b.onlineUsers(app, ['u'])).toEqual(['u']);
        expect(await a.signOut(app, 'u', '1.1')).toBe(false);
        await b.addConnection(app, '2.1');
        expect((await b.removeConnection(app, '2.1', [], 'u')).userWentOffline).toBe(true);
        expect(await a.onlineUsers(app, ['u'])).toEqual([]);
      });

      it('takes a closed node\'s sign-ins out: its users are online only where they still are', async () => {
        const [a, b] = [await make(), await make()];
        const app = appId();
        await a.signIn(app, 'gone', '1.1');
        await a.signIn(app, 'kept', '1.2');
        await b.signIn(app, 'kept', '2.1');
        await a.close();
        created.splice(created.indexOf(a), 1);
        expect(await b.onlineUsers(app, ['gone', 'kept'])).toEqual(['kept']);
        expect(await b.signIn(app, 'gone', '2.2')).toBe(true);
      });

      it('drops a closed node\'s sockets from counts and presence', async () => {
        const [a, b] = [await make(), await make()];
        const app = appId();
        await a.addConnection(app, '1.1');
        await a.addSubscription(app, 'room', '1.1');
        await a.joinPresence(app, 'presence-y', '1.1', { userId: 'gone', userInfo: '{}' }, 10);
        await b.addConnection(app, '2.1');
        await a.close();
        created.splice(created.indexOf(a), 1);
        expect(await b.connectionCount(app)).toBe(1);
        expect(await b.subscriptionCount(app, 'room')).toBe(0);
        expect(await b.userCount(app, 'presence-y')).toBe(0);
      });
    }
  });
}
