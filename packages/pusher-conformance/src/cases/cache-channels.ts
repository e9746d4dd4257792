import { defineGroup } from '../case.js';
import { checkEqual } from '../checks.js';
import { connectRaw } from '../clients/raw-socket.js';
import { openPusher, record } from '../clients/pusher-client.js';
import { serverSdk } from '../clients/server-sdk.js';
import { docs } from './docs.js';
import { atMost, subscribeRaw } from './support.js';

export const cacheChannelCases = defineGroup('cache-channels', [
  {
    id: 'cache-channels.replays-last-event',
    title: 'a new subscriber of a cache channel gets the last event triggered before it subscribed, and only that one',
    docs: `${docs.cacheChannels}#how-it-works`,
    async run(context) {
      const { node, app } = context.target;
      const name = context.unique('cache-prices');
      const sdk = serverSdk(context, node, app);
      await sdk.trigger(name, 'price', { v: 1 });
      await sdk.trigger(name, 'price', { v: 2 });
      const channel = openPusher(context, { node, app }).subscribe(name);
      const prices = record(channel, 'price');
      const [event] = await context.waitFor(() => prices.length > 0 && prices, 'the cached event on subscription');
      checkEqual(event, { v: 2 }, 'the replayed event');
      await atMost(context, 1, () => prices, 'only the last event is replayed');
    },
  },
  {
    id: 'cache-channels.cache-miss',
    title: 'a subscriber of an empty cache channel gets pusher:cache_miss',
    docs: `${docs.cacheChannels}#handling-cache-misses`,
    async run(context) {
      const { node, app } = context.target;
      const name = context.unique('cache-empty');
      const misses = record(openPusher(context, { node, app }).subscribe(name), 'pusher:cache_miss');
      await context.waitFor(() => misses.length > 0, 'pusher:cache_miss');
    },
  },
  {
    id: 'cache-channels.private-cache',
    title: 'private-cache-* replays its last event to an authorized subscriber',
    docs: `${docs.cacheChannels}#channel-types`,
    async run(context) {
      const { node, app } = context.target;
      const name = context.unique('private-cache-ledger');
      await serverSdk(context, node, app).trigger(name, 'balance', { total: 3 });
      const connection = await connectRaw(context, { node, key: app.key });
      await subscribeRaw(context, connection, name);
      const frame = await connection.socket.next('balance', 'the cached event');
      checkEqual(frame.data, { total: 3 }, 'the replayed data');
    },
  },
]);
