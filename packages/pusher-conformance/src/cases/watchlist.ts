import { defineGroup } from '../case.js';
import { check, checkEqual } from '../checks.js';
import { openPusher, record, signedIn, type PusherClient } from '../clients/pusher-client.js';
import { docs } from './docs.js';
import { featureApp, atMost, signedInFeatureClient } from './support.js';

/** What pusher-js emits on `pusher.user.watchlist` for each entry of `pusher_internal:watchlist_events`. */
interface WatchlistEvent {
  name: string;
  user_ids: string[];
}

function watchlistEvents(client: PusherClient, name: 'online' | 'offline'): WatchlistEvent[] {
  return record<WatchlistEvent>(client.user.watchlist, name);
}

/** Every id the events named, flattened. */
const ids = (events: readonly WatchlistEvent[]) => events.flatMap((event) => event.user_ids ?? []);

export const watchlistCases = defineGroup('watchlist', [
  {
    id: 'watchlist.initial-online',
    title: 'on sign-in, pusher.user.watchlist emits online with the watched users already online (and not the others)',
    docs: `${docs.watchlist}#receiving-watchlist-events`,
    needs: ['featureApp', 'watchlist'],
    async run(context) {
      const present = context.unique('present');
      const absent = context.unique('absent');
      await signedInFeatureClient(context, { user: { id: present } });
      const watcher = openPusher(context, { node: context.target.node, app: featureApp(context), identity: { user: { id: context.unique('watcher'), watchlist: [present, absent] } } });
      // Bound before the sign-in: the initial event may follow pusher:signin_success at once.
      const online = watchlistEvents(watcher, 'online');
      await signedIn(context, watcher);
      await context.waitFor(() => ids(online).includes(present), `an online event naming ${present}`);
      check(!ids(online).includes(absent), `the online event names ${absent}, who never connected: ${JSON.stringify(online)}`);
    },
  },
  {
    id: 'watchlist.online-on-first-connection',
    title: 'a watched user\'s first connection emits online once; their second connection emits nothing',
    docs: `${docs.watchlist}#receiving-watchlist-events`,
    needs: ['featureApp', 'watchlist'],
    async run(context) {
      const watched = context.unique('watched');
      const watcher = await signedInFeatureClient(context, { user: { id: context.unique('watcher'), watchlist: [watched] } });
      const online = watchlistEvents(watcher, 'online');
      await context.sleep(200);
      const before = ids(online).filter((id) => id === watched).length;
      checkEqual(before, 0, `online events for ${watched} before they connected`);
      await signedInFeatureClient(context, { user: { id: watched } });
      await context.waitFor(() => ids(online).includes(watched), `an online event for ${watched}`);
      await signedInFeatureClient(context, { user: { id: watched } });
      await atMost(context, 1, () => ids(online).filter((id) => id === watched), 'a second connection of an online user must not emit online again');
    },
  },
  {
    id: 'watchlist.offline-after-last-connection',
    title: 'offline is emitted when the watched user\'s last connection closes, not when one of several closes',
    docs: `${docs.watchlist}#receiving-watchlist-events`,
    needs: ['featureApp', 'watchlist'],
    async run(context) {
      const watched = context.unique('watched');
      const watcher = openPusher(context, { node: context.target.node, app: featureApp(context), identity: { user: { id: context.unique('watcher'), watchlist: [watched] } } });
      // Bound before the sign-in: the initial status names the watched user offline, and it may arrive after
      // pusher:signin_success; it is waited for, so that only later offline events are counted.
      const online = watchlistEvents(watcher, 'online');
      const offline = watchlistEvents(watcher, 'offline');
      await signedIn(context, watcher);
      await context.waitFor(() => ids(offline).includes(watched), `the initial status naming ${watched} offline`);
      const initially = ids(offline).length;
      const phone = await signedInFeatureClient(context, { user: { id: watched } });
      const laptop = await signedInFeatureClient(context, { user: { id: watched } });
      await context.waitFor(() => ids(online).includes(watched), `an online event for ${watched}`);
      phone.disconnect();
      await atMost(context, 0, () => ids(offline).slice(initially), 'the user still has a connection, so no offline yet');
      laptop.disconnect();
      await context.waitFor(() => ids(offline).slice(initially).includes(watched), `an offline event for ${watched} after their last connection closed`);
    },
  },
]);
