import { defineGroup, type CaseContext } from '../case.js';
import { checkEqual } from '../checks.js';
import { record, subscribed, type PusherChannel } from '../clients/pusher-client.js';
import { docs } from './docs.js';
import { featureApp, atMost, signedInFeatureClient, signedInRaw, subscribeRaw, checkSubscribed } from './support.js';

const countOf = (channel: PusherChannel) => (channel as unknown as { subscriptionCount: number | null }).subscriptionCount;

/** From now on, the counts pusher-js emits as `pusher:subscription_count`, in order. */
function counts(channel: PusherChannel): () => unknown[] {
  const events = record<{ subscription_count?: unknown }>(channel, 'pusher:subscription_count');
  return () => events.map((event) => event.subscription_count);
}

/** The last count emitted becomes `expected` (a server may coalesce the counts in between), and pusher-js keeps it. */
async function countReaches(context: CaseContext, channel: PusherChannel, seen: () => unknown[], expected: number): Promise<void> {
  await context.waitFor(() => seen().at(-1) === expected, () => `pusher:subscription_count ${expected} (emitted so far: ${JSON.stringify(seen())})`);
  checkEqual(countOf(channel), expected, 'channel.subscriptionCount');
}

export const subscriptionCountCases = defineGroup('subscription-count', [
  {
    id: 'subscription-count.on-join',
    title: 'subscribers of a public channel get pusher:subscription_count with the new count when another joins, and channel.subscriptionCount follows',
    docs: `${docs.subscriptionCount}`,
    needs: ['featureApp', 'subscription-count'],
    async run(context) {
      const name = context.unique('counted');
      const first = await subscribed(context, await signedInFeatureClient(context), name);
      const seen = counts(first);
      await subscribed(context, await signedInFeatureClient(context), name);
      await countReaches(context, first, seen, 2);
    },
  },
  {
    id: 'subscription-count.on-leave',
    title: 'when a subscriber leaves, the others get the lower count',
    docs: `${docs.subscriptionCount}`,
    needs: ['featureApp', 'subscription-count'],
    async run(context) {
      const name = context.unique('counted');
      const first = await subscribed(context, await signedInFeatureClient(context), name);
      const seen = counts(first);
      const leaver = await signedInFeatureClient(context);
      await subscribed(context, leaver, name);
      await countReaches(context, first, seen, 2);
      leaver.unsubscribe(name);
      await countReaches(context, first, seen, 1);
    },
  },
  {
    id: 'subscription-count.private',
    title: 'private channels are counted too',
    docs: `${docs.subscriptionCount}`,
    needs: ['featureApp', 'subscription-count'],
    async run(context) {
      const name = context.unique('private-counted');
      const first = await subscribed(context, await signedInFeatureClient(context), name);
      const seen = counts(first);
      await subscribed(context, await signedInFeatureClient(context), name);
      await subscribed(context, await signedInFeatureClient(context), name);
      await countReaches(context, first, seen, 3);
    },
  },
  {
    id: 'subscription-count.none-for-presence',
    title: 'presence channels get no pusher_internal:subscription_count (they have members instead)',
    docs: `${docs.subscriptionCount}`,
    needs: ['featureApp', 'subscription-count'],
    async run(context) {
      const name = context.unique('presence-uncounted');
      const app = featureApp(context);
      const first = await signedInRaw(context);
      checkSubscribed(await subscribeRaw(context, first, name, { app }), name);
      const second = await signedInRaw(context);
      checkSubscribed(await subscribeRaw(context, second, name, { app }), name);
      const countFrames = () => [...first.socket.frames, ...second.socket.frames].filter((frame) => frame.event === 'pusher_internal:subscription_count');
      await atMost(context, 0, countFrames, 'a presence channel must get no subscription count', 1_500);
      checkEqual(countFrames().length, 0, 'subscription count frames on a presence channel');
    },
  },
]);
