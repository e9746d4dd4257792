/**
 * Where everything lives in Redis. App ids, channel names and user ids are
 * URI-encoded inside key names (`keyPart`) so no value can forge another key's `:`.
 *
 * Every key carries the same hash tag, `{prefix}` (the braces are literal): on a
 * Redis Cluster they all hash to one slot, so every Lua script, the resync's
 * MULTI and the reaper may touch any of them (a script may only touch keys of
 * its own slot). The deployment's state therefore lives on one master; the
 * pub/sub traffic of channel topics (untagged) spreads over all of them. A
 * prefix must not contain `{` or `}` (refused by the options): a brace would
 * change which part of the name Redis hashes.
 *
 * The layout (`<...>` are placeholders, the braces are literal):
 *
 *   {<prefix>}:bus                                pub/sub channel of node-wide cluster messages
 *   {<prefix>}:nodes                              ZSET nodeId -> last heartbeat (Redis clock, ms)
 *   {<prefix>}:nodes:routed                       ZSET nodeId -> last heartbeat, of the nodes in routing 'subscribed'
 *   {<prefix>}:node:<nodeId>                      SET of this node's entries (JSON), to undo them wholesale
 *   {<prefix>}:app:<app>:conns                    SET of nodeId|socketId
 *   {<prefix>}:app:<app>:chans                    HASH channel -> subscription count (occupied channels only)
 *   {<prefix>}:app:<app>:ch:<channel>:subs        SET of nodeId|socketId
 *   {<prefix>}:app:<app>:ch:<channel>:sockets     HASH nodeId|socketId -> userId (presence sockets)
 *   {<prefix>}:app:<app>:ch:<channel>:users       HASH userId -> number of sockets, cluster-wide
 *   {<prefix>}:app:<app>:ch:<channel>:info        HASH userId -> user_info JSON
 *   {<prefix>}:app:<app>:ch:<channel>:cache       STRING last frame of a cache channel, with EX ttl
 *   {<prefix>}:app:<app>:online                   HASH userId -> number of signed-in sockets (watchlist apps only)
 *   {<prefix>}:app:<app>:user:<userId>:signins    SET of nodeId|socketId signed in as the user (watchlist apps only)
 *   <prefix>:c:<app>:<channel>                    pub/sub topic of a channel's messages (routing 'subscribed'); no hash tag
 */
export interface Keys {
  readonly bus: string;
  readonly nodes: string;
  /** The ZSET of nodes in routing 'subscribed', scored like `nodes` (the heartbeat script keeps both). */
  readonly routedNodes: string;
  node(nodeId: string): string;
  connections(appId: string): string;
  channels(appId: string): string;
  subscribers(appId: string, channel: string): string;
  presenceSockets(appId: string, channel: string): string;
  presenceUsers(appId: string, channel: string): string;
  presenceInfo(appId: string, channel: string): string;
  cache(appId: string, channel: string): string;
  /** Signed-in users with their number of signed-in sockets (watchlist events). */
  online(appId: string): string;
  /** A user's signed-in sockets (watchlist events). */
  signins(appId: string, userId: string): string;
  /** A channel's pub/sub topic: untagged, so that on a Cluster the topics spread over every master. */
  topic(appId: string, channel: string): string;
}

/** A UTF-16 surrogate without its other half (which `encodeURIComponent` refuses with a URIError). */
const loneSurrogate = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/**
 * A value as part of a key name: percent-encoded, so no value forges a `:` or a brace. It never throws:
 * a lone surrogate (the engine refuses one in a user id, but this package serves any caller of the Scaler
 * interface; JSON's `"\ud800"` is one) becomes `%uD800`, which
 * `encodeURIComponent` never writes (`u` is no hex digit), so distinct values keep distinct keys. A
 * throw here would fail the Redis call, and the scaler would take it for an outage and leave the cluster.
 */
function keyPart(value: string): string {
  let encoded = '';
  let from = 0;
  for (const match of value.matchAll(loneSurrogate)) {
    encoded += `${encodeURIComponent(value.slice(from, match.index))}%u${match[0].charCodeAt(0).toString(16).toUpperCase()}`;
    from = match.index + 1;
  }
  return from === 0 ? encodeURIComponent(value) : encoded + encodeURIComponent(value.slice(from));
}

/** The part of every key Redis Cluster hashes: `{prefix}`. */
function hashTag(prefix: string): string {
  return `{${prefix}}`;
}

export function createKeys(prefix: string): Keys {
  const tag = hashTag(prefix);
  const app = (appId: string) => `${tag}:app:${keyPart(appId)}`;
  const channel = (appId: string, name: string) => `${app(appId)}:ch:${keyPart(name)}`;
  return {
    bus: `${tag}:bus`,
    nodes: `${tag}:nodes`,
    routedNodes: `${tag}:nodes:routed`,
    node: (nodeId) => `${tag}:node:${nodeId}`,
    connections: (appId) => `${app(appId)}:conns`,
    channels: (appId) => `${app(appId)}:chans`,
    subscribers: (appId, name) => `${channel(appId, name)}:subs`,
    presenceSockets: (appId, name) => `${channel(appId, name)}:sockets`,
    presenceUsers: (appId, name) => `${channel(appId, name)}:users`,
    presenceInfo: (appId, name) => `${channel(appId, name)}:info`,
    cache: (appId, name) => `${channel(appId, name)}:cache`,
    online: (appId) => `${app(appId)}:online`,
    signins: (appId, userId) => `${app(appId)}:user:${keyPart(userId)}:signins`,
    topic: (appId, name) => `${prefix}:c:${keyPart(appId)}:${keyPart(name)}`,
  };
}

/** A socket as stored in shared sets: node ids never contain `|`. */
export function socketMember(nodeId: string, socketId: string): string {
  return `${nodeId}|${socketId}`;
}
