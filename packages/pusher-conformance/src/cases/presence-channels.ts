import { defineGroup } from '../case.js';
import { check, checkEqual } from '../checks.js';
import { connectRaw } from '../clients/raw-socket.js';
import { openPusher, record, subscribed, type PusherChannel } from '../clients/pusher-client.js';
import { signer } from '../clients/server-sdk.js';
import { docs } from './docs.js';
import { checkRefused, atMost, subscribeRaw } from './support.js';

interface Members {
  count: number;
  me: { id: string; info: unknown } | null;
  get(id: string): { id: string; info: unknown } | null;
  each(callback: (member: { id: string; info: unknown }) => void): void;
}

const members = (channel: PusherChannel) => (channel as unknown as { members: Members }).members;

function memberIds(channel: PusherChannel): string[] {
  const ids: string[] = [];
  members(channel).each((member) => ids.push(member.id));
  return ids.sort();
}

export const presenceChannelCases = defineGroup('presence-channels', [
  {
    id: 'presence-channels.members',
    title: 'a joining member gets every member with their user_info and itself as me; the others get pusher:member_added',
    docs: `${docs.presenceChannels}#accessing-channel-members`,
    async run(context) {
      const { node, app } = context.target;
      const name = context.unique('presence-room');
      const ann = { user_id: context.unique('ann'), user_info: { name: 'Ann' } };
      const bob = { user_id: context.unique('bob'), user_info: { name: 'Bob', roles: ['x'] } };
      const first = await subscribed(context, openPusher(context, { node, app, identity: { presence: ann } }), name);
      const added = record<{ id: string; info: unknown }>(first, 'pusher:member_added');
      const second = await subscribed(context, openPusher(context, { node, app, identity: { presence: bob } }), name);
      checkEqual(members(second).count, 2, 'the joining member\'s members.count');
      checkEqual(members(second).me?.id, bob.user_id, 'members.me.id');
      checkEqual(members(second).get(ann.user_id)?.info, ann.user_info, 'the other member\'s user_info');
      const [event] = await context.waitFor(() => added.length > 0 && added, 'pusher:member_added on the first member');
      checkEqual(event, { id: bob.user_id, info: bob.user_info }, 'the pusher:member_added member');
      checkEqual(memberIds(first), [ann.user_id, bob.user_id].sort(), 'the first member\'s members after the join');
    },
  },
  {
    id: 'presence-channels.member-removed',
    title: 'when a member disconnects the others get pusher:member_removed and the count drops',
    docs: `${docs.presenceChannels}#events`,
    async run(context) {
      const { node, app } = context.target;
      const name = context.unique('presence-room');
      const stay = { user_id: context.unique('stay') };
      const leave = { user_id: context.unique('leave') };
      const staying = await subscribed(context, openPusher(context, { node, app, identity: { presence: stay } }), name);
      const removed = record<{ id: string }>(staying, 'pusher:member_removed');
      const leaver = openPusher(context, { node, app, identity: { presence: leave } });
      await subscribed(context, leaver, name);
      await context.waitFor(() => members(staying).count === 2, 'the second member to be counted');
      leaver.disconnect();
      const [event] = await context.waitFor(() => removed.length > 0 && removed, 'pusher:member_removed');
      checkEqual(event?.id, leave.user_id, 'the removed member\'s id');
      checkEqual(members(staying).count, 1, 'members.count after the removal');
    },
  },
  {
    id: 'presence-channels.one-user-many-connections',
    title: 'a user with two connections is one member: one member_added, and member_removed only after the last leaves',
    docs: `${docs.presenceChannels}#events`,
    async run(context) {
      const { node, app } = context.target;
      const name = context.unique('presence-room');
      const watcher = await subscribed(context, openPusher(context, { node, app }), name);
      const added = record<{ id: string }>(watcher, 'pusher:member_added');
      const removed = record<{ id: string }>(watcher, 'pusher:member_removed');
      const twin = { user_id: context.unique('twin') };
      const firstTab = openPusher(context, { node, app, identity: { presence: twin } });
      const secondTab = openPusher(context, { node, app, identity: { presence: twin } });
      await subscribed(context, firstTab, name);
      await subscribed(context, secondTab, name);
      await context.waitFor(() => added.length > 0, 'pusher:member_added for the user');
      await atMost(context, 1, () => added, 'a second connection of the same user must not be announced again');
      checkEqual(members(watcher).count, 2, 'members.count with one user on two connections');
      firstTab.disconnect();
      await atMost(context, 0, () => removed, 'the user still has a connection, so must not be removed');
      secondTab.disconnect();
      const [event] = await context.waitFor(() => removed.length > 0 && removed, 'pusher:member_removed after the last connection left');
      checkEqual(event?.id, twin.user_id, 'the removed member');
    },
  },
  {
    id: 'presence-channels.subscription-succeeded-frame',
    title: 'pusher_internal:subscription_succeeded carries presence.ids, presence.hash and presence.count',
    docs: `${docs.protocol}#presence-channel-events`,
    async run(context) {
      const { node, app } = context.target;
      const name = context.unique('presence-room');
      const member = { user_id: context.unique('raw'), user_info: { name: 'Raw' } };
      const connection = await connectRaw(context, { node, key: app.key });
      const answer = await subscribeRaw(context, connection, name, { member });
      checkEqual(answer.event, 'pusher_internal:subscription_succeeded', 'the answer');
      check(typeof answer.rawData === 'string', `its data must be a JSON-encoded string: ${answer.raw}`);
      checkEqual((answer.data as { presence?: unknown }).presence, { ids: [member.user_id], hash: { [member.user_id]: member.user_info }, count: 1 }, 'data.presence');
    },
  },
  {
    id: 'presence-channels.bad-auth',
    title: 'a presence subscription whose signature does not cover its channel_data is refused',
    docs: `${docs.signatures}#presence-channels`,
    async run(context) {
      const { node, app } = context.target;
      const name = context.unique('presence-room');
      const connection = await connectRaw(context, { node, key: app.key });
      const after = connection.socket.frames.length;
      // A signature for one member, sent with another's channel_data: the server must check the whole string.
      const auth = signer(app).authorizeChannel(connection.socketId, name, { user_id: 'honest' });
      connection.socket.subscribe(name, { auth: auth.auth, channel_data: JSON.stringify({ user_id: 'impostor' }) });
      const answer = await connection.socket.next((frame) => frame.channel === name || frame.event === 'pusher:error', 'the answer', undefined, after);
      checkRefused(answer, name);
    },
  },
  {
    id: 'presence-channels.pusher-js-subscription-error',
    title: 'a presence signature the server refuses reaches pusher-js as pusher:subscription_error on the channel (channel.bind fires)',
    docs: `${docs.presenceChannels}#pusher-subscription-error`,
    async run(context) {
      const { node, app } = context.target;
      const name = context.unique('presence-room');
      const client = openPusher(context, { node, app, identity: { signWithSecret: `${app.secret}-wrong` } });
      const channel = client.subscribe(name);
      const errors = record(channel, 'pusher:subscription_error');
      await context.waitFor(() => errors.length > 0, 'pusher:subscription_error on the channel');
      check(!channel.subscribed, 'pusher-js counts the channel as subscribed after a refused signature');
    },
  },
]);
