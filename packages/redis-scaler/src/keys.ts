/**
 * Where everything lives in Redis. App ids and channel names are
 * URI-encoded inside key names so no value can forge another key's `:`.
 *
 *   {prefix}:bus                              pub/sub channel of cluster messages
 *   {prefix}:nodes                            ZSET nodeId -> last heartbeat (Redis clock, ms)
 *   {prefix}:node:{nodeId}                    SET of this node's entries (JSON), to undo them wholesale
 *   {prefix}:app:{app}:conns                  SET of nodeId|socketId
 *   {prefix}:app:{app}:chans                  HASH channel -> subscription count (occupied channels only)
 *   {prefix}:app:{app}:ch:{channel}:subs      SET of nodeId|socketId
 *   {prefix}:app:{app}:ch:{channel}:sockets   HASH nodeId|socketId -> userId (presence sockets)
 *   {prefix}:app:{app}:ch:{channel}:users     HASH userId -> number of sockets, cluster-wide
 *   {prefix}:app:{app}:ch:{channel}:info      HASH userId -> user_info JSON
 *   {prefix}:app:{app}:ch:{channel}:cache     STRING last frame of a cache channel, with EX ttl
 */
export interface Keys {
  readonly bus: string;
  readonly nodes: string;
  node(nodeId: string): string;
  connections(appId: string): string;
  channels(appId: string): string;
  subscribers(appId: string, channel: string): string;
  presenceSockets(appId: string, channel: string): string;
  presenceUsers(appId: string, channel: string): string;
  presenceInfo(appId: string, channel: string): string;
  cache(appId: string, channel: string): string;
}

export function createKeys(prefix: string): Keys {
  const app = (appId: string) => `${prefix}:app:${encodeURIComponent(appId)}`;
  const channel = (appId: string, name: string) => `${app(appId)}:ch:${encodeURIComponent(name)}`;
  return {
    bus: `${prefix}:bus`,
    nodes: `${prefix}:nodes`,
    node: (nodeId) => `${prefix}:node:${nodeId}`,
    connections: (appId) => `${app(appId)}:conns`,
    channels: (appId) => `${app(appId)}:chans`,
    subscribers: (appId, name) => `${channel(appId, name)}:subs`,
    presenceSockets: (appId, name) => `${channel(appId, name)}:sockets`,
    presenceUsers: (appId, name) => `${channel(appId, name)}:users`,
    presenceInfo: (appId, name) => `${channel(appId, name)}:info`,
    cache: (appId, name) => `${channel(appId, name)}:cache`,
  };
}

/** A socket as stored in shared sets: node ids never contain `|`. */
export function socketMember(nodeId: string, socketId: string): string {
  return `${nodeId}|${socketId}`;
}
