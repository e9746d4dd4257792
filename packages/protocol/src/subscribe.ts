import { channelNameProblem, channelType, isCacheChannel, serverToUserPrefix } from './channel-name.js';
import { verifyChannelAuth } from './signing.js';
import { ErrorCode } from './close-codes.js';
import type { Connection, Membership } from './connection.js';
import {
  cacheMissFrame,
  errorFrame,
  subscriptionErrorFrame,
  subscriptionSucceededFrame,
  type SubscriptionErrorType,
} from './frames.js';
import { parsePresenceData, presencePayload } from './presence-data.js';
import type { CachedEvent, PresenceMember } from './scaler.js';
import type { RealtimeServer } from './realtime-server.js';
import type { App } from './app.js';
import { inChannelOrder } from './channel-order.js';
import type { SubscriptionRefusalReason } from './server-events.js';

interface SubscribeData {
  channel?: unknown;
  auth?: unknown;
  channel_data?: unknown;
}

/** `pusher:subscribe`: checks, joins presence, registers cluster-wide, then confirms; in order per channel. */
export function handleSubscribe(server: RealtimeServer, connection: Connection, data: unknown): Promise<void> {
  const { channel, auth, channel_data: channelData } = (typeof data === 'object' && data !== null ? data : {}) as SubscribeData;
  if (typeof channel !== 'string') {
    connection.socket.send(errorFrame(ErrorCode.ReconnectNow, 'pusher:subscribe needs data.channel as a string.'));
    return Promise.resolve();
  }
  return inChannelOrder(connection, channel, () => subscribe(server, connection, channel, auth, channelData));
}

function refuseSubscription(server: RealtimeServer, connection: Connection, channel: string, refusal: SubscriptionRefusal): void {
  connection.socket.send(subscriptionErrorFrame(channel, refusal.type, refusal.error, refusal.status));
  server.events.emit('subscription.refused', { app: connection.app, channel, reason: refusal.reason });
}

interface SubscriptionRefusal {
  reason: SubscriptionRefusalReason;
  type: SubscriptionErrorType;
  error: string;
  status: number;
}

async function subscribe(server: RealtimeServer, connection: Connection, channel: string, auth: unknown, channelData: unknown): Promise<void> {
  if (connection.state !== 'open') return;
  const { app, socket, socketId } = connection;
  const refuse = (refusal: SubscriptionRefusal) => refuseSubscription(server, connection, channel, refusal);
  const problem = channelNameProblem(channel, app);
  if (problem) return refuse({ reason: 'invalid_channel', type: 'InvalidChannel', error: problem, status: ErrorCode.Unauthorized });
  if (connection.channels.has(channel)) return; // already subscribed: pusher-js never asks twice
  if (connection.channels.size >= app.maxChannelsPerConnection) {
    return refuse({
      reason: 'channel_limit',
      type: 'LimitReached',
      error: `A connection may hold at most ${app.maxChannelsPerConnection} channels; unsubscribe from one first.`,
      status: ErrorCode.OverCapacity,
    });
  }

  const type = channelType(channel);
  let presenceMember: ReturnType<typeof parsePresenceData> | undefined;
  if (type === 'private' || type === 'private-encrypted') {
    if (!verifyChannelAuth(app, socketId, channel, auth)) {
      return refuse({ reason: 'auth', type: 'AuthError', error: 'Invalid signature for this socket and channel.', status: 401 });
    }
  } else if (type === 'presence') {
    if (typeof channelData !== 'string' || !verifyChannelAuth(app, socketId, channel, auth, channelData)) {
      return refuse({ reason: 'auth', type: 'AuthError', error: 'Invalid signature for this socket, channel and channel_data.', status: 401 });
    }
    presenceMember = parsePresenceData(channelData, app);
    if (!presenceMember.ok) {
      return refuse({ reason: 'invalid_presence_data', type: 'LimitReached', error: presenceMember.error, status: ErrorCode.ClientEventRejected });
    }
  } else if (type === 'server-to-user') {
    // pusher-js subscribes here after sign-in; the socket already listens on this topic.
    if (connection.userId === undefined || channel !== serverToUserPrefix + connection.userId) {
      return refuse({ reason: 'auth', type: 'AuthError', error: 'Sign in as this user before subscribing to its channel.', status: 401 });
    }
    socket.send(subscriptionSucceededFrame(channel));
    return;
  }

  const membership: Membership = { active: false, presenceUserId: undefined };
  connection.channels.set(channel, membership);
  // A presence subscriber hears member events before its snapshot is taken: one published after the
  // snapshot reaches it, one published before is in the snapshot, so it misses none. Channel events
  // reach it, as any subscriber, only once it is confirmed.
  if (presenceMember?.ok) server.awaitMembers(app, channel, connection);
  try {
    await register(server, connection, channel, membership, presenceMember?.ok ? presenceMember.member : undefined);
  } catch (error) {
    // Half-registered and still open: let the client subscribe again. (Once closed, the close cleans up.)
    server.stopAwaitingMembers(app, channel, connection);
    if (connection.state === 'open' && connection.channels.get(channel) === membership) {
      connection.channels.delete(channel);
      server.removeLocalSubscriber(server.topic(app, channel), connection);
      await server.scaler.removeSubscription(app.id, channel, socketId).catch(() => undefined);
      if (membership.presenceUserId !== undefined) await server.scaler.leavePresence(app.id, channel, socketId, membership.presenceUserId).catch(() => undefined);
    }
    throw error;
  }
}

/**
 * Records the subscription in the cluster and confirms it. What is recorded is
 * noted on the membership even when the socket closes meanwhile: the close
 * then removes exactly that (and announces the member's departure if its
 * arrival was announced).
 */
async function register(server: RealtimeServer, connection: Connection, channel: string, membership: Membership, member: PresenceMember | undefined): Promise<void> {
  const { app, socket, socketId } = connection;
  let publishedSince: (() => boolean) | undefined;
  try {
    if (member) {
      const joined = await server.scaler.joinPresence(app.id, channel, socketId, member, app.maxPresenceMembers);
      server.stopAwaitingMembers(app, channel, connection);
      if (joined.status === 'full') {
        connection.channels.delete(channel);
        if (connection.state === 'open') {
          refuseSubscription(server, connection, channel, {
            reason: 'presence_full',
            type: 'LimitReached',
            error: `Presence channel is full (${app.maxPresenceMembers} members).`,
            status: ErrorCode.OverCapacity,
          });
        }
        return;
      }
      membership.presenceUserId = member.userId;
      if (connection.state === 'open') {
        // In the same turn as the snapshot arrived: no member event can slip between the two.
        publishedSince = listen(server, connection, channel);
        socket.send(subscriptionSucceededFrame(channel, presencePayload(joined.members)));
        membership.active = true;
      }
      if (joined.firstForUser) {
        server.broadcastMemberChange({ type: 'member-added', appId: app.id, channel, userId: member.userId, userInfo: member.userInfo, exceptSocketId: socketId }, app);
        server.events.emit('member.added', { app, channel, userId: member.userId });
      }
    }

    const count = await server.scaler.addSubscription(app.id, channel, socketId);
    if (count === 1) server.events.emit('channel.occupied', { app, channel });
    if (connection.state !== 'open') return;
    if (!member) {
      // Listening and confirmed in one turn, as Pusher does: no event arrives before subscription_succeeded.
      publishedSince = listen(server, connection, channel);
      socket.send(subscriptionSucceededFrame(channel));
      membership.active = true;
    }
    if (publishedSince) {
      const watched = publishedSince;
      publishedSince = undefined;
      await replayCache(server, connection, channel, watched);
    }
    server.log.channel.debug({ app: app.id, socketId, channel }, 'subscribed');
  } finally {
    publishedSince?.(); // a watch never handed to the replay (closed or failed meanwhile) is released
  }
}

/**
 * Joins the channel's fan-out. For a cache channel, returns whether anything
 * was published to it since (the cache replay must not follow a newer live event).
 */
function listen(server: RealtimeServer, connection: Connection, channel: string): (() => boolean) | undefined {
  const topic = server.topic(connection.app, channel);
  server.addLocalSubscriber(topic, connection);
  return isCacheChannel(channel) ? server.watchTopic(topic, connection) : undefined;
}

/**
 * Sends a cache channel's last event (or cache_miss) after the confirmation,
 * unless a live event reached the subscriber meanwhile: that one is at least
 * as new as anything the cache could replay.
 */
async function replayCache(server: RealtimeServer, connection: Connection, channel: string, publishedSince: () => boolean): Promise<void> {
  const { app, socket } = connection;
  let cached: CachedEvent | undefined;
  let overtaken: boolean;
  try {
    cached = await server.scaler.cachedEvent(app.id, channel);
  } finally {
    overtaken = publishedSince();
  }
  if (overtaken || connection.state !== 'open') return;
  if (cached) {
    socket.send(cached.frame);
  } else {
    socket.send(cacheMissFrame(channel));
    server.events.emit('cache.miss', { app, channel });
  }
}

/** `pusher:unsubscribe`: no reply, as in Pusher; in order per channel. */
export function handleUnsubscribe(server: RealtimeServer, connection: Connection, data: unknown): Promise<void> {
  const channel = typeof data === 'object' && data !== null ? (data as { channel?: unknown }).channel : undefined;
  if (typeof channel !== 'string') {
    connection.socket.send(errorFrame(ErrorCode.ReconnectNow, 'pusher:unsubscribe needs data.channel as a string.'));
    return Promise.resolve();
  }
  return inChannelOrder(connection, channel, async () => {
    if (connection.state !== 'open') return;
    const membership = connection.channels.get(channel);
    if (!membership) return;
    connection.channels.delete(channel);
    await leaveChannel(server, connection, channel, membership);
  });
}

/**
 * Undoes an active subscription: local fan-out, cluster count (channel_vacated
 * at zero) and presence (member_removed after the user's last socket).
 */
async function leaveChannel(server: RealtimeServer, connection: Connection, channel: string, membership: Membership): Promise<void> {
  membership.active = false;
  const { app } = connection;
  server.removeLocalSubscriber(server.topic(app, channel), connection);

  const remaining = await server.scaler.removeSubscription(app.id, channel, connection.socketId);
  if (membership.presenceUserId !== undefined) await leavePresence(server, connection, channel, membership.presenceUserId);
  if (remaining === 0) server.events.emit('channel.vacated', { app, channel });
  server.log.channel.debug({ app: app.id, socketId: connection.socketId, channel }, 'unsubscribed');
}

async function leavePresence(server: RealtimeServer, connection: Connection, channel: string, userId: string): Promise<void> {
  const { app } = connection;
  const last = await server.scaler.leavePresence(app.id, channel, connection.socketId, userId);
  if (last) announceMemberRemoved(server, app, channel, userId);
}

/** Tells a channel, on every node, that a presence user left it. */
export function announceMemberRemoved(server: RealtimeServer, app: App, channel: string, userId: string): void {
  server.broadcastMemberChange({ type: 'member-removed', appId: app.id, channel, userId }, app);
  server.events.emit('member.removed', { app, channel, userId });
}
