import { channelType } from './channel-name.js';
import { ErrorCode } from './close-codes.js';
import type { ConnectionRecord } from './connection.js';
import type { EngineContext } from './engine-context.js';
import { channelEventFrame, errorFrame, type InboundFrame } from './frames.js';
import { spendClientEvent } from './frame-budget.js';
import { nestsDeeperThan } from './bounded-json.js';

function reject(context: EngineContext, connection: ConnectionRecord, message: string): void {
  context.send(connection, errorFrame(ErrorCode.ClientEventRejected, message));
}

/**
 * A `client-*` event: relayed to the channel's other subscribers, on this
 * node and others, only from a member of a private or presence channel, with
 * `user_id` added on presence channels. Never echoed to the sender.
 */
export function handleClientEvent(context: EngineContext, connection: ConnectionRecord, frame: InboundFrame): void {
  const { app } = connection;
  if (!app.enableClientMessages) return reject(context, connection, 'Client events are disabled for this app.');
  const { channel } = frame;
  if (typeof channel !== 'string') return reject(context, connection, 'A client event needs a channel.');
  const type = channelType(channel);
  if (type !== 'private' && type !== 'presence') {
    return reject(context, connection, 'Client events are only allowed on private and presence channels.');
  }
  const membership = connection.membership(channel);
  if (!membership?.active) return reject(context, connection, `Subscribe to ${channel} before sending client events to it.`);
  if (frame.event.length > app.maxEventNameLength) {
    return reject(context, connection, `Event name is longer than ${app.maxEventNameLength} characters.`);
  }

  // The frame budget opened this second's window; client events have their own, smaller count in it.
  if (!spendClientEvent(connection, app)) {
    context.emit('client.event.rate_limited', { app, channel, event: frame.event, socketId: connection.socketId });
    return reject(context, connection, `Rate limit exceeded: at most ${app.maxClientEventsPerSecond} client events per second.`);
  }

  // The frame passed the nesting bound, so re-encoding its data cannot overflow the stack. String data is
  // JSON that receivers parse (pusher-js does, then logs it recursively): it gets the same bound.
  if (typeof frame.data === 'string' && nestsDeeperThan(frame.data, app.maxJsonDepth)) {
    return reject(context, connection, `Event data nests JSON deeper than ${app.maxJsonDepth} levels.`);
  }
  const encodedData = JSON.stringify(frame.data ?? null);
  if (Buffer.byteLength(encodedData) > app.maxMessageSize) {
    return reject(context, connection, `Event data is larger than ${app.maxMessageSize} bytes.`);
  }
  const userId = type === 'presence' ? membership.presenceUserId : undefined;
  context.broadcast(app, channel, channelEventFrame(frame.event, channel, encodedData, userId), frame.event, connection.socketId);
  context.emit('client.event', { app, channel, event: frame.event, data: frame.data, socketId: connection.socketId, userId });
}
