import { defineGroup } from '../case.js';
import { check, checkEqual } from '../checks.js';
import { connectRaw } from '../clients/raw-socket.js';
import { connected, openPusher, record, subscribed } from '../clients/pusher-client.js';
import { serverSdk } from '../clients/server-sdk.js';
import { docs } from './docs.js';
import { checkSubscribed, atMost, subscribeRaw } from './support.js';

export const publicChannelCases = defineGroup('public-channels', [
  {
    id: 'public-channels.subscribe-and-receive',
    title: 'pusher-js subscribes to a public channel and receives an event triggered with the SDK, data intact',
    docs: `${docs.publicChannels}#subscribe`,
    async run(context) {
      const { node, app } = context.target;
      const name = context.unique('public');
      const channel = await subscribed(context, openPusher(context, { node, app }), name);
      const received = record(channel, 'price-changed');
      const data = { symbol: 'ACME', price: 12.5, tags: ['a', 'é', '😀'] };
      await serverSdk(context, node, app).trigger(name, 'price-changed', data);
      const [event] = await context.waitFor(() => received.length > 0 && received, 'the event to reach pusher-js');
      checkEqual(event, data, 'the event data');
    },
  },
  {
    id: 'public-channels.subscription-succeeded-frame',
    title: 'a subscription is answered pusher_internal:subscription_succeeded naming the channel',
    docs: `${docs.protocol}#pusher_internal-subscription_succeeded`,
    async run(context) {
      const name = context.unique('public');
      const connection = await connectRaw(context, { node: context.target.node, key: context.target.app.key });
      checkSubscribed(await subscribeRaw(context, connection, name), name);
    },
  },
  {
    id: 'public-channels.unsubscribe',
    title: 'after pusher:unsubscribe a connection gets no more events of the channel',
    docs: `${docs.protocol}#pusher-unsubscribe`,
    async run(context) {
      const { node, app } = context.target;
      const name = context.unique('public');
      const leaving = openPusher(context, { node, app });
      const staying = openPusher(context, { node, app });
      const left = record(await subscribed(context, leaving, name), 'news');
      const kept = record(await subscribed(context, staying, name), 'news');
      leaving.unsubscribe(name);
      await context.sleep(200);
      await serverSdk(context, node, app).trigger(name, 'news', { n: 1 });
      await context.waitFor(() => kept.length > 0, 'the event to reach the client still subscribed');
      await atMost(context, 0, () => left, 'the unsubscribed client must get nothing');
    },
  },
  {
    id: 'public-channels.exclude-socket-id',
    title: 'an event triggered with socket_id reaches every subscriber but that connection',
    docs: `${docs.excludingRecipients}`,
    async run(context) {
      const { node, app } = context.target;
      const name = context.unique('public');
      const sender = openPusher(context, { node, app });
      const other = openPusher(context, { node, app });
      const senderEvents = record(await subscribed(context, sender, name), 'edit');
      const otherEvents = record(await subscribed(context, other, name), 'edit');
      await serverSdk(context, node, app).trigger(name, 'edit', { by: 'sender' }, { socket_id: await connected(context, sender) });
      await context.waitFor(() => otherEvents.length > 0, 'the event to reach the other subscriber');
      await atMost(context, 0, () => senderEvents, 'the excluded connection must not get its own event');
    },
  },
  {
    id: 'public-channels.several-channels',
    title: 'one trigger to several channels reaches the subscribers of each',
    docs: `${docs.httpApi}#post-event-trigger-an-event`,
    async run(context) {
      const { node, app } = context.target;
      const names = [context.unique('public'), context.unique('public'), context.unique('public')];
      const client = openPusher(context, { node, app });
      const received = await Promise.all(names.map(async (name) => record(await subscribed(context, client, name), 'tick')));
      await serverSdk(context, node, app).trigger(names, 'tick', { at: 1 });
      await context.waitFor(() => received.every((events) => events.length === 1), 'the event on each of the three channels');
      check(received.every((events) => JSON.stringify(events[0]) === '{"at":1}'), `each channel gets the same data: ${JSON.stringify(received)}`);
    },
  },
]);
