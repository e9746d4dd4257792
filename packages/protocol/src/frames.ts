/**
 * Outbound frames, built by string concatenation so a broadcast is serialised
 * once and every field is escaped by JSON.stringify. `data` follows the Pusher
 * spec: a JSON string for connection_established, subscription_succeeded and
 * member events, an object for pusher:error and pusher:signin_success.
 */
import { parseBoundedJson } from './bounded-json.js';

const q = JSON.stringify;

export function connectionEstablishedFrame(socketId: string, activityTimeout: number): string {
  return `{"event":"pusher:connection_established","data":${q(`{"socket_id":${q(socketId)},"activity_timeout":${activityTimeout}}`)}}`;
}

export function errorFrame(code: number | null, message: string, channel?: string): string {
  const channelPart = channel === undefined ? '' : `,"channel":${q(channel)}`;
  return `{"event":"pusher:error"${channelPart},"data":{"code":${code === null ? 'null' : code},"message":${q(message)}}}`;
}

export const pongFrame = '{"event":"pusher:pong","data":{}}';
export const pingFrame = '{"event":"pusher:ping","data":{}}';

export function subscriptionSucceededFrame(channel: string, presenceJson?: string): string {
  const data = presenceJson === undefined ? '{}' : `{"presence":${presenceJson}}`;
  return `{"event":"pusher_internal:subscription_succeeded","channel":${q(channel)},"data":${q(data)}}`;
}

export type SubscriptionErrorType = 'AuthError' | 'LimitReached' | 'InvalidChannel';

export function subscriptionErrorFrame(channel: string, type: SubscriptionErrorType, error: string, status: number): string {
  return `{"event":"pusher:subscription_error","channel":${q(channel)},"data":{"type":${q(type)},"error":${q(error)},"status":${status}}}`;
}

export function memberAddedFrame(channel: string, userId: string, userInfoJson: string): string {
  return `{"event":"pusher_internal:member_added","channel":${q(channel)},"data":${q(`{"user_id":${q(userId)},"user_info":${userInfoJson}}`)}}`;
}

export function memberRemovedFrame(channel: string, userId: string): string {
  return `{"event":"pusher_internal:member_removed","channel":${q(channel)},"data":${q(`{"user_id":${q(userId)}}`)}}`;
}

/** `data` is JSON text, as in every server frame: pusher-js reads `subscription_count` from it. */
export function subscriptionCountFrame(channel: string, count: number): string {
  return `{"event":"pusher_internal:subscription_count","channel":${q(channel)},"data":${q(`{"subscription_count":${count}}`)}}`;
}

export function cacheMissFrame(channel: string): string {
  return `{"event":"pusher:cache_miss","channel":${q(channel)},"data":"{}"}`;
}

export function signinSuccessFrame(userData: string): string {
  return `{"event":"pusher:signin_success","data":{"user_data":${q(userData)}}}`;
}

/**
 * A channel event. `encodedData` is the JSON encoding of the data value,
 * computed once per broadcast and shared by every channel it goes to.
 */
export function channelEventFrame(event: string, channel: string, encodedData: string, userId?: string): string {
  const userPart = userId === undefined ? '' : `,"user_id":${q(userId)}`;
  return `{"event":${q(event)},"channel":${q(channel)},"data":${encodedData}${userPart}}`;
}

/** A parsed inbound frame: only its envelope is checked here. */
export interface InboundFrame {
  event: string;
  channel?: unknown;
  data?: unknown;
}

/** Why an inbound frame was refused before any handler saw it. */
export type InboundFrameProblem = 'syntax' | 'depth' | 'shape';

/**
 * Parses an inbound frame; never throws. Returns the problem instead for text
 * that is not JSON, nests deeper than `maxDepth`, or is not `{ "event": string, ... }`.
 */
export function parseInboundFrame(text: string, maxDepth: number): InboundFrame | InboundFrameProblem {
  const parsed = parseBoundedJson(text, maxDepth);
  if (!parsed.ok) return parsed.problem;
  const { value } = parsed;
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return 'shape';
  const frame = value as Record<string, unknown>;
  return typeof frame['event'] === 'string' ? (frame as unknown as InboundFrame) : 'shape';
}

/**
 * `pusher_internal:watchlist_events`, the frame pusher-js's `user.watchlist` listens for: `data` is the
 * JSON text of `{"events":[{"name":"online","user_ids":[…]},{"name":"offline","user_ids":[…]}]}`,
 * an entry only when it has ids.
 */
export function watchlistEventsFrame(online: readonly string[], offline: readonly string[]): string {
  const events: string[] = [];
  if (online.length > 0) events.push(`{"name":"online","user_ids":${q(online)}}`);
  if (offline.length > 0) events.push(`{"name":"offline","user_ids":${q(offline)}}`);
  return `{"event":"pusher_internal:watchlist_events","data":${q(`{"events":[${events.join(',')}]}`)}}`;
}
