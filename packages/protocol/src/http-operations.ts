import type { App } from './app.js';
import { channelNameProblem, channelType, eventNameProblem, isCacheChannel } from './channel-name.js';
import { nestsDeeperThan, stringifyOrUndefined } from './bounded-json.js';
import { RealtimeError } from './errors.js';
import { channelEventFrame } from './frames.js';
import type { EngineContext } from './engine-context.js';

/** An event for the HTTP API's trigger and batch endpoints. */
export interface TriggerEvent {
  name: string;
  /** The event data; Pusher SDKs send a string, which clients receive as is. */
  data: unknown;
  channels: readonly string[];
  /** Exclude this socket from delivery (the sender's own socket). */
  socketId?: string | undefined;
  /** Attributes to report per channel: `subscription_count`, `user_count`. */
  info?: readonly string[] | undefined;
}

export interface ChannelAttributes {
  occupied?: boolean;
  subscription_count?: number;
  user_count?: number;
  cache?: { data: string; ttl: number };
}

const socketIdPattern = /^\d+\.\d+$/;
const knownInfo = new Set(['subscription_count', 'user_count', 'cache']);

/**
 * A trigger that passed every check of `prepareTrigger`, with its data JSON-encoded once. The HTTP
 * API prepares while parsing the request and hands this to `RealtimeServer.trigger`, which then
 * neither validates nor encodes again. It is frozen (its arrays too, copied before they were
 * checked) and trusted only with the very `App` it was checked against: a changed app configuration
 * is a new `App`, and gets the event checked again.
 */
export class PreparedTrigger implements TriggerEvent {
  readonly #app: App;

  /** @param encodedData the `data` as it goes into frames (JSON text). */
  private constructor(
    app: App,
    readonly name: string,
    readonly channels: readonly string[],
    /** As given: a prepared trigger is still a `TriggerEvent`. */
    readonly data: unknown,
    readonly encodedData: string,
    readonly socketId: string | undefined,
    readonly info: readonly string[] | undefined,
  ) {
    this.#app = app;
    Object.freeze(this);
  }

  /** The id of the app it was checked for. */
  get appId(): string {
    return this.#app.id;
  }

  /** Whether it was checked against exactly this app (object, not id: a reloaded app is checked again). */
  isFor(app: App): boolean {
    return this.#app === app;
  }

  /** Throws `RealtimeError` for anything Pusher's limits forbid. */
  static of(app: App, event: TriggerEvent): PreparedTrigger {
    // Copied first, then checked: what is published is exactly what was checked.
    const checked: TriggerEvent = {
      name: event.name,
      data: event.data,
      channels: Object.freeze([...event.channels]),
      socketId: event.socketId,
      info: event.info === undefined ? undefined : Object.freeze([...event.info]),
    };
    const encodedData = validateTriggerEvent(app, checked);
    return new PreparedTrigger(app, checked.name, checked.channels, checked.data, encodedData, checked.socketId, checked.info);
  }
}

/** Checks an event once: the prepared form is what the engine publishes. */
export function prepareTrigger(app: App, event: TriggerEvent): PreparedTrigger {
  return PreparedTrigger.of(app, event);
}

/** Throws `RealtimeError` for anything Pusher's limits forbid; returns the JSON-encoded data. */
function validateTriggerEvent(app: App, event: TriggerEvent): string {
  const nameProblem = eventNameProblem(event.name, app);
  if (nameProblem) throw new RealtimeError('INVALID_EVENT_NAME', nameProblem);
  if (event.channels.length === 0) throw new RealtimeError('INVALID_CHANNEL', 'at least one channel is required');
  if (event.channels.length > app.maxChannelsPerEvent) {
    throw new RealtimeError('TOO_MANY_CHANNELS', `an event may go to at most ${app.maxChannelsPerEvent} channels`);
  }
  for (const channel of event.channels) {
    const problem = channelNameProblem(channel, app);
    if (problem) throw new RealtimeError('INVALID_CHANNEL', `${JSON.stringify(channel)}: ${problem}`);
  }
  if (event.socketId !== undefined && !socketIdPattern.test(event.socketId)) {
    throw new RealtimeError('INVALID_SOCKET_ID', 'socket_id must look like 1234.5678');
  }
  if (event.info?.includes('user_count')) {
    const notPresence = event.channels.find((channel) => channelType(channel) !== 'presence');
    if (notPresence !== undefined) {
      throw new RealtimeError('NOT_A_PRESENCE_CHANNEL', `info=user_count is only available for presence channels, not ${JSON.stringify(notPresence)}`);
    }
  }
  if (typeof event.data === 'string') {
    // Clients parse string data as JSON (pusher-js does, then logs it recursively): a deeply nested string
    // would overflow their stacks, so it is refused here as it is in client events.
    if (nestsDeeperThan(event.data, app.maxJsonDepth)) {
      throw new RealtimeError('INVALID_ARGUMENT', `event data nests JSON deeper than ${app.maxJsonDepth} levels`);
    }
    checkDataSize(app, Buffer.byteLength(event.data));
    checkInfo(event.info);
    return JSON.stringify(event.data);
  }
  const encoded = stringifyOrUndefined(event.data ?? null);
  if (encoded === undefined) throw new RealtimeError('INVALID_ARGUMENT', 'event data cannot be encoded as JSON (cyclic, a BigInt, or nested too deeply)');
  checkDataSize(app, Buffer.byteLength(encoded));
  checkInfo(event.info);
  return encoded;
}

function checkInfo(info: readonly string[] | undefined): void {
  for (const attribute of info ?? []) {
    if (!knownInfo.has(attribute)) throw new RealtimeError('INVALID_ARGUMENT', `unknown info attribute ${JSON.stringify(attribute)}`);
  }
}

function checkDataSize(app: App, dataBytes: number): void {
  if (dataBytes > app.maxMessageSize) {
    throw new RealtimeError('PAYLOAD_TOO_LARGE', `event data is ${dataBytes} bytes; the limit is ${app.maxMessageSize}`);
  }
}

/**
 * Publishes an event to its channels on every node. The data is encoded once;
 * each channel's frame differs only by its `channel` field.
 */
export async function trigger(context: EngineContext, app: App, event: TriggerEvent | PreparedTrigger): Promise<Record<string, ChannelAttributes> | undefined> {
  // Prepared for this very app: already checked. Anything else (a plain event, or one prepared for another app or
  // another configuration of it) is checked now.
  const prepared = event instanceof PreparedTrigger && event.isFor(app) ? event : prepareTrigger(app, event);
  const caching: Promise<void>[] = [];
  for (const channel of prepared.channels) {
    const frame = channelEventFrame(prepared.name, channel, prepared.encodedData);
    context.broadcast(app, channel, frame, prepared.name, prepared.socketId);
    if (isCacheChannel(channel)) caching.push(context.scaler.storeCachedEvent(app.id, channel, frame, app.cacheTtl));
  }
  await Promise.all(caching);
  if (!prepared.info?.length) return undefined;
  const result: Record<string, ChannelAttributes> = {};
  for (const channel of prepared.channels) result[channel] = await channelAttributes(context, app, channel, prepared.info, false);
  return result;
}

/** `GET /channels/{name}`-style attributes; `user_count` only for presence channels. */
export async function channelAttributes(
  context: EngineContext,
  app: App,
  channel: string,
  info: readonly string[],
  withOccupied = true,
): Promise<ChannelAttributes> {
  const problem = channelNameProblem(channel, app);
  if (problem) throw new RealtimeError('INVALID_CHANNEL', problem);
  const isPresence = channelType(channel) === 'presence';
  if (info.includes('user_count') && !isPresence) {
    throw new RealtimeError('NOT_A_PRESENCE_CHANNEL', 'user_count is only available for presence channels');
  }
  const subscriptionCount = await context.scaler.subscriptionCount(app.id, channel);
  const attributes: ChannelAttributes = {};
  if (withOccupied) attributes.occupied = subscriptionCount > 0;
  if (info.includes('subscription_count')) attributes.subscription_count = subscriptionCount;
  if (info.includes('user_count')) attributes.user_count = await context.scaler.userCount(app.id, channel);
  if (info.includes('cache') && isCacheChannel(channel)) {
    const cached = await context.scaler.cachedEvent(app.id, channel);
    const data = cached && cachedData(cached.frame);
    if (cached && data !== undefined) attributes.cache = { data, ttl: cached.ttl };
  }
  return attributes;
}

/** The `data` of a cached frame; undefined for a frame the cache store corrupted. */
function cachedData(frame: string): string | undefined {
  try {
    const data = (JSON.parse(frame) as { data?: unknown }).data;
    return typeof data === 'string' ? data : undefined;
  } catch {
    return undefined;
  }
}

/** Occupied channels, optionally filtered by prefix, with the requested attributes. */
export async function listChannels(
  context: EngineContext,
  app: App,
  options: { prefix?: string | undefined; info?: readonly string[] | undefined },
): Promise<Record<string, ChannelAttributes>> {
  const info = options.info ?? [];
  if (info.includes('user_count') && !options.prefix?.startsWith('presence-')) {
    throw new RealtimeError('NOT_A_PRESENCE_CHANNEL', 'info=user_count needs filter_by_prefix=presence-');
  }
  const channels = await context.scaler.channels(app.id);
  const result: Record<string, ChannelAttributes> = {};
  for (const [channel, count] of channels) {
    if (count === 0 || (options.prefix && !channel.startsWith(options.prefix))) continue;
    const attributes: ChannelAttributes = {};
    if (info.includes('subscription_count')) attributes.subscription_count = count;
    if (info.includes('user_count')) attributes.user_count = await context.scaler.userCount(app.id, channel);
    result[channel] = attributes;
  }
  return result;
}

/** The users of a presence channel. */
export async function presenceUsers(context: EngineContext, app: App, channel: string): Promise<{ id: string }[]> {
  const problem = channelNameProblem(channel, app);
  if (problem) throw new RealtimeError('INVALID_CHANNEL', problem);
  if (channelType(channel) !== 'presence') throw new RealtimeError('NOT_A_PRESENCE_CHANNEL', 'users are only listed for presence channels');
  const members = await context.scaler.presenceMembers(app.id, channel);
  return members.map((member) => ({ id: member.userId }));
}

/** Closes every connection of a user, on every node. */
export function terminateUserConnections(context: EngineContext, app: App, userId: string): void {
  if (userId === '' || userId.length > app.maxUserIdLength) {
    throw new RealtimeError('INVALID_ARGUMENT', `user id must be 1 to ${app.maxUserIdLength} characters`);
  }
  context.terminateLocalUser(app.id, userId);
  context.scaler.publish({ type: 'terminate-user', appId: app.id, userId });
}
