import { defineGroup, type CaseContext } from '../case.js';
import { checkEqual } from '../checks.js';
import { openPusher, record, signedIn, subscribed, userChannelReady, type PusherChannel } from '../clients/pusher-client.js';
import { serverSdk } from '../clients/server-sdk.js';
import { signedFetch } from '../clients/signed-http.js';
import type { Endpoint } from '../target.js';
import { docs } from './docs.js';
import { eventually, secondNode, signedInFeatureClient } from './support.js';

const memberCount = (channel: PusherChannel) => (channel as unknown as { members: { count: number } }).members.count;

async function userCount(context: CaseContext, node: Endpoint, channel: string): Promise<unknown> {
  const { app } = context.target;
  const answer = await signedFetch(context, node, app, { method: 'GET', path: `/apps/${app.id}/channels/${channel}`, params: { info: 'user_count' } });
  return (answer.json as { user_count?: unknown } | undefined)?.user_count;
}

export const twoNodeCases = defineGroup('two-nodes', [
  {
    id: 'two-nodes.event-across-nodes',
    title: 'an event triggered through node A reaches pusher-js connected to node B',
    docs: `${docs.httpApi}#post-event-trigger-an-event`,
    needs: ['node2'],
    async run(context) {
      const { node, app } = context.target;
      const name = context.unique('across');
      const received = record(await subscribed(context, openPusher(context, { node: secondNode(context), app }), name), 'hop');
      await serverSdk(context, node, app).trigger(name, 'hop', { from: 'A' });
      const [event] = await context.waitFor(() => received.length > 0 && received, 'the event on node B');
      checkEqual(event, { from: 'A' }, 'the event data');
    },
  },
  {
    id: 'two-nodes.client-event-across-nodes',
    title: 'a client event sent on node A reaches a subscriber on node B',
    docs: `${docs.events}#triggering-client-events`,
    needs: ['node2'],
    async run(context) {
      const { node, app } = context.target;
      const name = context.unique('private-across');
      const sender = await subscribed(context, openPusher(context, { node, app }), name);
      const heard = record(await subscribed(context, openPusher(context, { node: secondNode(context), app }), name), 'client-hop');
      sender.trigger('client-hop', { n: 1 });
      await context.waitFor(() => heard.length > 0, 'the client event on node B');
    },
  },
  {
    id: 'two-nodes.presence-across-nodes',
    title: 'presence members on two nodes see each other: members, member_added, member_removed',
    docs: `${docs.presenceChannels}#events`,
    needs: ['node2'],
    async run(context) {
      const { node, app } = context.target;
      const name = context.unique('presence-across');
      const onA = await subscribed(context, openPusher(context, { node, app }), name);
      const added = record<{ id: string }>(onA, 'pusher:member_added');
      const removed = record<{ id: string }>(onA, 'pusher:member_removed');
      const member = { user_id: context.unique('b') };
      const clientB = openPusher(context, { node: secondNode(context), app, identity: { presence: member } });
      const onB = await subscribed(context, clientB, name);
      checkEqual(memberCount(onB), 2, 'members.count on node B');
      await context.waitFor(() => added.some((entry) => entry.id === member.user_id), 'member_added on node A');
      clientB.disconnect();
      await context.waitFor(() => removed.some((entry) => entry.id === member.user_id), 'member_removed on node A');
    },
  },
  {
    id: 'two-nodes.counts-across-nodes',
    title: 'user_count of a presence channel counts the members of both nodes, asked to either node',
    docs: `${docs.httpApi}#get-channel-fetch-info-for-one-channel`,
    needs: ['node2'],
    async run(context) {
      const { node, app } = context.target;
      const node2 = secondNode(context);
      const name = context.unique('presence-counted');
      await subscribed(context, openPusher(context, { node, app }), name);
      await subscribed(context, openPusher(context, { node: node2, app }), name);
      for (const [label, asked] of [['node A', node], ['node B', node2]] as const) {
        let count: unknown;
        await eventually(context, async () => (count = await userCount(context, asked, name)) === 2, () => `user_count 2 asked to ${label} (last answer ${JSON.stringify(count)})`);
      }
    },
  },
  {
    id: 'two-nodes.send-to-user-across-nodes',
    title: 'sendToUser through node A reaches the user signed in on node B',
    docs: `${docs.sendToUser}`,
    needs: ['node2'],
    async run(context) {
      const { node, app } = context.target;
      const user = { id: context.unique('user') };
      const client = openPusher(context, { node: secondNode(context), app, identity: { user } });
      await signedIn(context, client);
      const received = record(client.user, 'ping-user');
      await userChannelReady(context, client);
      await serverSdk(context, node, app).sendToUser(user.id, 'ping-user', { ok: true });
      await context.waitFor(() => received.length > 0, 'the event on node B');
    },
  },
  {
    id: 'two-nodes.subscription-count-across-nodes',
    title: 'pusher:subscription_count counts the subscribers of both nodes',
    docs: `${docs.subscriptionCount}`,
    needs: ['node2', 'featureApp', 'subscription-count'],
    async run(context) {
      const name = context.unique('counted-across');
      const onA = await subscribed(context, await signedInFeatureClient(context), name);
      const seen = record<{ subscription_count?: unknown }>(onA, 'pusher:subscription_count');
      await subscribed(context, await signedInFeatureClient(context, {}, secondNode(context)), name);
      await context.waitFor(() => seen.at(-1)?.subscription_count === 2, () => `pusher:subscription_count 2 on node A (emitted: ${JSON.stringify(seen)})`);
    },
  },
]);
