import { channelNameProblem, channelType, serverToUserPrefix } from './channel-name.js';
import { verifyChannelAuth } from './signing.js';
import { ErrorCode } from './close-codes.js';
import type { ConnectionRecord, Membership } from './connection.js';
import type { EngineContext } from './engine-context.js';
import {
  cacheMissFrame,
  errorFrame,
  subscriptionErrorFrame,
  subscriptionSucceededFrame,
  type SubscriptionErrorType,
} from './frames.js';
import { parsePresenceData, presencePayload } from './presence-data.js';
import type { CachedEvent, HeldChannel, PresenceMember } from './scaler.js';
import type { App } from './app.js';
import { channelOpsSettled, inChannelOrder } from './channel-order.js';
import type { SubscriptionRefusalReason } from './server-events.js';

interface SubscribeData {
  channel?: unknown;
  auth?: unknown;
  channel_data?: unknown;
}

/** `pusher:subscribe`: checks, joins presence, registers cluster-wide, then confirms; in order per channel. */
export function handleSubscribe(context: EngineContext, connection: ConnectionRecord, data: unknown): Promise<void> {
  const { channel, auth, channel_data: channelData } = (typeof data === 'object' && data !== null ? data : {}) as SubscribeData;
  if (typeof channel !== 'string') {
    context.send(connection, errorFrame(ErrorCode.ReconnectNow, 'pusher:subscribe needs data.channel as a string.'));
    return Promise.resolve();
  }
  return inChannelOrder(connection, channel, () => subscribe(context, connection, channel, auth, channelData));
}

function refuseSubscription(context: EngineContext, connection: ConnectionRecord, channel: string, refusal: SubscriptionRefusal): void {
  context.send(connection, subscriptionErrorFrame(channel, refusal.type, refusal.error, refusal.status));
  context.emit('subscription.refused', { app: connection.app, channel, reason: refusal.reason });
}

interface SubscriptionRefusal {
  reason: SubscriptionRefusalReason;
  type: SubscriptionErrorType;
  error: string;
  status: number;
}

async function subscribe(context: EngineContext, connection: ConnectionRecord, channel: string, auth: unknown, channelData: unknown): Promise<void> {
  if (connection.state !== 'open') return;
  const { app, socketId } = connection;
  const refuse = (refusal: SubscriptionRefusal) => refuseSubscription(context, connection, channel, refusal);
  const problem = channelNameProblem(channel, app);
  if (problem) return refuse({ reason: 'invalid_channel', type: 'InvalidChannel', error: problem, status: ErrorCode.Unauthorized });
  if (connection.membership(channel)) return; // already subscribed: pusher-js never asks twice
  if (connection.channelCount >= app.maxChannelsPerConnection) {
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
    context.send(connection, subscriptionSucceededFrame(channel));
    return;
  }

  const membership = connection.addMembership(channel);
  // A presence subscriber hears member events before its snapshot is taken: one published after the
  // snapshot reaches it, one published before is in the snapshot, so it misses none. Channel events
  // reach it, as any subscriber, only once it is confirmed.
  if (presenceMember?.ok) context.awaitMembers(connection, channel);
  try {
    await register(context, connection, membership, presenceMember?.ok ? presenceMember.member : undefined);
  } catch (error) {
    // Half-registered and still open: let the client subscribe again. (Once closed, the close cleans up.)
    context.stopAwaitingMembers(connection, channel);
    if (connection.state === 'open' && connection.removeMembership(membership)) {
      context.leave(connection, membership);
      await context.scaler.removeSubscription(app.id, channel, socketId).then(
        () => context.subscriptionCountChanged(app, channel),
        () => undefined,
      );
      if (membership.presenceUserId !== undefined) await context.scaler.leavePresence(app.id, channel, socketId, membership.presenceUserId).catch(() => undefined);
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
async function register(context: EngineContext, connection: ConnectionRecord, membership: Membership, member: PresenceMember | undefined): Promise<void> {
  const { app, socketId } = connection;
  const { channel } = membership;
  let publishedSince: (() => boolean) | undefined;
  try {
    if (member) {
      const joined = await context.scaler.joinPresence(app.id, channel, socketId, member, app.maxPresenceMembers);
      context.stopAwaitingMembers(connection, channel);
      if (joined.status === 'full') {
        connection.removeMembership(membership);
        if (connection.state === 'open') {
          refuseSubscription(context, connection, channel, {
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
        publishedSince = context.join(connection, membership);
        context.send(connection, subscriptionSucceededFrame(channel, presencePayload(joined.members)));
      }
      if (joined.firstForUser) {
        context.announceMember(app, { type: 'member-added', appId: app.id, channel, userId: member.userId, userInfo: member.userInfo, exceptSocketId: socketId });
      }
    }

    const count = await context.scaler.addSubscription(app.id, channel, socketId);
    if (count === 1) context.emit('channel.occupied', { app, channel });
    if (connection.state !== 'open') return;
    if (!member) {
      // Listening and confirmed in one turn, as Pusher does: no event arrives before subscription_succeeded.
      publishedSince = context.join(connection, membership);
      context.send(connection, subscriptionSucceededFrame(channel));
    }
    // After the join: the count this change leads to reaches the new subscriber too.
    context.subscriptionCountChanged(app, channel);
    if (publishedSince) {
      const watched = publishedSince;
      publishedSince = undefined;
      await replayCache(context, connection, channel, watched);
    }
    context.log.channel.debug({ app: app.id, socketId, channel }, 'subscribed');
  } finally {
    publishedSince?.(); // a watch never handed to the replay (closed or failed meanwhile) is released
  }
}

/**
 * Sends a cache channel's last event (or cache_miss) after the confirmation,
 * unless a live event reached the subscriber meanwhile: that one is at least
 * as new as anything the cache could replay.
 */
async function replayCache(context: EngineContext, connection: ConnectionRecord, channel: string, publishedSince: () => boolean): Promise<void> {
  const { app } = connection;
  let cached: CachedEvent | undefined;
  let overtaken: boolean;
  try {
    cached = await context.scaler.cachedEvent(app.id, channel);
  } finally {
    overtaken = publishedSince();
  }
  if (overtaken || connection.state !== 'open') return;
  if (cached) {
    context.send(connection, cached.frame);
  } else {
    context.send(connection, cacheMissFrame(channel));
    context.emit('cache.miss', { app, channel });
  }
}

/** `pusher:unsubscribe`: no reply, as in Pusher; in order per channel. */
export function handleUnsubscribe(context: EngineContext, connection: ConnectionRecord, data: unknown): Promise<void> {
  const channel = typeof data === 'object' && data !== null ? (data as { channel?: unknown }).channel : undefined;
  if (typeof channel !== 'string') {
    context.send(connection, errorFrame(ErrorCode.ReconnectNow, 'pusher:unsubscribe needs data.channel as a string.'));
    return Promise.resolve();
  }
  return inChannelOrder(connection, channel, async () => {
    if (connection.state !== 'open') return;
    const membership = connection.membership(channel);
    if (!membership) return;
    connection.removeMembership(membership);
    await leaveChannel(context, connection, membership);
  });
}

/**
 * Undoes an active subscription: local fan-out, cluster count (channel_vacated
 * at zero) and presence (member_removed after the user's last socket).
 */
async function leaveChannel(context: EngineContext, connection: ConnectionRecord, membership: Membership): Promise<void> {
  const { app } = connection;
  const { channel } = membership;
  context.leave(connection, membership);

  const remaining = await context.scaler.removeSubscription(app.id, channel, connection.socketId);
  context.subscriptionCountChanged(app, channel);
  if (membership.presenceUserId !== undefined) await leavePresence(context, connection, channel, membership.presenceUserId);
  if (remaining === 0) context.emit('channel.vacated', { app, channel });
  context.log.channel.debug({ app: app.id, socketId: connection.socketId, channel }, 'unsubscribed');
}

async function leavePresence(context: EngineContext, connection: ConnectionRecord, channel: string, userId: string): Promise<void> {
  const { app } = connection;
  const last = await context.scaler.leavePresence(app.id, channel, connection.socketId, userId);
  if (last) announceMemberRemoved(context, app, channel, userId);
}

/** Tells a channel, on every node, that a presence user left it. */
export function announceMemberRemoved(context: EngineContext, app: App, channel: string, userId: string): void {
  context.announceMember(app, { type: 'member-removed', appId: app.id, channel, userId });
}

/**
 * After a close: once the operations in flight on its channels have settled
 * (a subscribe finishes recording what it recorded), every channel the socket
 * held leaves the cluster in one scaler call (its sign-in too), with
 * `member_removed`, `channel_vacated` and a watchlist `offline` as they follow.
 */
export async function releaseChannels(context: EngineContext, connection: ConnectionRecord): Promise<void> {
  await channelOpsSettled(connection);
  const { app } = connection;
  const held: HeldChannel[] = [];
  for (const membership of connection.takeMemberships()) {
    held.push({ channel: membership.channel, presenceUserId: membership.presenceUserId });
    membership.active = false;
  }
  // Its sign-in leaves too when the scaler recorded it (watchlist events), in the same step.
  const signedInAs = app.enableWatchlistEvents ? connection.userId : undefined;
  const removal = await (signedInAs === undefined
    ? context.scaler.removeConnection(app.id, connection.socketId, held)
    : context.scaler.removeConnection(app.id, connection.socketId, held, signedInAs));
  if (app.enableSubscriptionCount) for (const { channel } of held) context.subscriptionCountChanged(app, channel);
  for (const { channel, userId } of removal.membersLeft) announceMemberRemoved(context, app, channel, userId);
  for (const channel of removal.vacated) context.emit('channel.vacated', { app, channel });
  if (removal.userWentOffline && signedInAs !== undefined) context.announceUserStatus(app, signedInAs, false);
}
