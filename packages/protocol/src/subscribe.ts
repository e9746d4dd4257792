import { channelNameProblem, channelType, isCacheChannel, serverToUserPrefix } from './channel-name.js';
import { verifyChannelAuth } from './channel-auth.js';
import { ErrorCode } from './close-codes.js';
import type { Connection, Membership } from './connection.js';
import {
  cacheMissFrame,
  errorFrame,
  memberAddedFrame,
  memberRemovedFrame,
  subscriptionErrorFrame,
  subscriptionSucceededFrame,
} from './frames.js';
import { parsePresenceData, presencePayload } from './presence-data.js';
import type { RealtimeServer } from './realtime-server.js';

interface SubscribeData {
  channel?: unknown;
  auth?: unknown;
  channel_data?: unknown;
}

/** `pusher:subscribe`: checks, joins presence, registers cluster-wide, then confirms. */
export async function handleSubscribe(server: RealtimeServer, connection: Connection, data: unknown): Promise<void> {
  const { app, socket, socketId } = connection;
  const { channel, auth, channel_data: channelData } = (typeof data === 'object' && data !== null ? data : {}) as SubscribeData;
  if (typeof channel !== 'string') {
    socket.send(errorFrame(ErrorCode.ReconnectNow, 'pusher:subscribe needs data.channel as a string.'));
    return;
  }
  const problem = channelNameProblem(channel, app);
  if (problem) {
    socket.send(subscriptionErrorFrame(channel, 'InvalidChannel', problem, ErrorCode.Unauthorized));
    return;
  }
  if (connection.channels.has(channel)) return; // already subscribed or pending: pusher-js never asks twice

  const type = channelType(channel);
  let presenceMember: ReturnType<typeof parsePresenceData> | undefined;
  if (type === 'private' || type === 'private-encrypted') {
    if (!verifyChannelAuth(app, socketId, channel, auth)) {
      socket.send(subscriptionErrorFrame(channel, 'AuthError', 'Invalid signature for this socket and channel.', 401));
      return;
    }
  } else if (type === 'presence') {
    if (typeof channelData !== 'string' || !verifyChannelAuth(app, socketId, channel, auth, channelData)) {
      socket.send(subscriptionErrorFrame(channel, 'AuthError', 'Invalid signature for this socket, channel and channel_data.', 401));
      return;
    }
    presenceMember = parsePresenceData(channelData, app);
    if (!presenceMember.ok) {
      socket.send(subscriptionErrorFrame(channel, 'LimitReached', presenceMember.error, ErrorCode.ClientEventRejected));
      return;
    }
  } else if (type === 'server-to-user') {
    // pusher-js subscribes here after sign-in; the socket already listens on this topic.
    if (connection.userId === undefined || channel !== serverToUserPrefix + connection.userId) {
      socket.send(subscriptionErrorFrame(channel, 'AuthError', 'Sign in as this user before subscribing to its channel.', 401));
      return;
    }
    socket.send(subscriptionSucceededFrame(channel));
    return;
  }

  const membership: Membership = { active: false, presenceUserId: presenceMember?.ok ? presenceMember.member.userId : undefined };
  connection.channels.set(channel, membership);
  const stillWanted = () => connection.state === 'open' && connection.channels.get(channel) === membership;

  let presenceJson: string | undefined;
  if (presenceMember?.ok) {
    const { member } = presenceMember;
    const joined = await server.scaler.joinPresence(app.id, channel, socketId, member, app.maxPresenceMembers);
    if (joined.status === 'full') {
      connection.channels.delete(channel);
      if (connection.state === 'open') {
        socket.send(subscriptionErrorFrame(channel, 'LimitReached', `Presence channel is full (${app.maxPresenceMembers} members).`, ErrorCode.OverCapacity));
      }
      return;
    }
    if (!stillWanted()) {
      await leavePresence(server, connection, channel, member.userId);
      return;
    }
    presenceJson = presencePayload(joined.members);
    if (joined.firstForUser) {
      server.broadcast(app, channel, memberAddedFrame(channel, member.userId, member.userInfo), 'pusher_internal:member_added', socketId);
      server.events.emit('member.added', { app, channel, userId: member.userId });
    }
  }

  const count = await server.scaler.addSubscription(app.id, channel, socketId);
  if (!stillWanted()) {
    await server.scaler.removeSubscription(app.id, channel, socketId);
    if (membership.presenceUserId !== undefined) await leavePresence(server, connection, channel, membership.presenceUserId);
    return;
  }
  if (count === 1) server.events.emit('channel.occupied', { app, channel });

  membership.active = true;
  server.addLocalSubscriber(server.topic(app, channel), connection);

  const cached = isCacheChannel(channel) ? await server.scaler.cachedEvent(app.id, channel) : undefined;
  if (connection.state !== 'open') return;
  socket.cork(() => {
    socket.send(subscriptionSucceededFrame(channel, presenceJson));
    if (!isCacheChannel(channel)) return;
    if (cached) {
      socket.send(cached.frame);
    } else {
      socket.send(cacheMissFrame(channel));
      server.events.emit('cache.miss', { app, channel });
    }
  });
  server.log.channel.debug({ app: app.id, socketId, channel }, 'subscribed');
}

/** `pusher:unsubscribe`: no reply, as in Pusher. */
export async function handleUnsubscribe(server: RealtimeServer, connection: Connection, data: unknown): Promise<void> {
  const channel = typeof data === 'object' && data !== null ? (data as { channel?: unknown }).channel : undefined;
  if (typeof channel !== 'string') {
    connection.socket.send(errorFrame(ErrorCode.ReconnectNow, 'pusher:unsubscribe needs data.channel as a string.'));
    return;
  }
  const membership = connection.channels.get(channel);
  if (!membership) return;
  connection.channels.delete(channel);
  await leaveChannel(server, connection, channel, membership);
}

/**
 * Undoes an active subscription: local fan-out, cluster count (channel_vacated
 * at zero) and presence (member_removed after the user's last socket).
 * A pending subscription is undone by its own flow when it resumes.
 */
export async function leaveChannel(server: RealtimeServer, connection: Connection, channel: string, membership: Membership): Promise<void> {
  if (!membership.active) return;
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
  if (!last) return;
  server.broadcast(app, channel, memberRemovedFrame(channel, userId), 'pusher_internal:member_removed');
  server.events.emit('member.removed', { app, channel, userId });
}
