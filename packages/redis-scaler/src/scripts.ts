import type { ChainableCommander, Redis } from 'ioredis';

/**
 * Lua scripts for every change that must be atomic: a shared aggregate and
 * this node's own entry set change together, so a dead node's entries can be
 * undone exactly. Registered with ioredis `defineCommand` (EVALSHA, falling
 * back to EVAL after a Redis restart flushed the script cache).
 *
 * Entries (members of `{prefix}:node:{nodeId}`) are JSON arrays holding the
 * full key names they touched:
 *   ["c", connsKey, member]
 *   ["s", subsKey, chansKey, member, appId, channel]
 *   ["p", socketsKey, usersKey, infoKey, member, appId, channel, userId]
 *   ["u", signinsKey, onlineKey, member, appId, userId]          (a signed-in socket, watchlist apps)
 */

const redisNowMs = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
`;

/**
 * Undoes one entry of a node (decoded from its JSON), appending to `users`
 * {appId, channel, userId} of presence users that thereby left the cluster,
 * to `vacated` {appId, channel} of channels left without subscribers, to
 * `reduced` (when given) {appId, channel} of channels that lost subscribers and
 * kept some, and to `offline` {appId, userId} of users left without a signed-in socket.
 * Every step checks that the shared state still holds exactly this socket,
 * so undoing an entry twice, or a stale one, changes nothing.
 */
const leaveCounted = `
local function leaveCounted(set, counts, field, member)
  if redis.call('SREM', set, member) == 0 then return false end
  local n = redis.call('SCARD', set)
  if n == 0 then redis.call('HDEL', counts, field) else redis.call('HSET', counts, field, n) end
  return n
end
`;

const undoEntry = `${leaveCounted}
local function undoEntry(e, users, vacated, reduced, offline)
  if e[1] == 'c' then
    redis.call('SREM', e[2], e[3])
  elseif e[1] == 's' then
    local n = leaveCounted(e[2], e[3], e[6], e[4])
    if n == 0 then
      table.insert(vacated, e[5]); table.insert(vacated, e[6])
    elseif n and reduced then
      local k = e[5] .. '\0' .. e[6]
      if not reduced.seen[k] then reduced.seen[k] = true; table.insert(reduced.list, e[5]); table.insert(reduced.list, e[6]) end
    end
  elseif e[1] == 'p' then
    if redis.call('HGET', e[2], e[5]) == e[8] then
      redis.call('HDEL', e[2], e[5])
      if redis.call('HINCRBY', e[3], e[8], -1) <= 0 then
        redis.call('HDEL', e[3], e[8]); redis.call('HDEL', e[4], e[8])
        table.insert(users, e[6]); table.insert(users, e[7]); table.insert(users, e[8])
      end
    end
  elseif e[1] == 'u' then
    if leaveCounted(e[2], e[3], e[6], e[4]) == 0 then table.insert(offline, e[5]); table.insert(offline, e[6]) end
  end
end
local function undoRaw(raw, users, vacated, reduced, offline)
  local ok, e = pcall(cjson.decode, raw)
  if ok and type(e) == 'table' then undoEntry(e, users, vacated, reduced, offline) end
end
`;

const scripts = {
  // KEYS: conns, node. ARGV: member, entry.
  rsAddConnection: {
    numberOfKeys: 2,
    lua: `
redis.call('SADD', KEYS[1], ARGV[1])
redis.call('SADD', KEYS[2], ARGV[2])
return redis.call('SCARD', KEYS[1])`,
  },
  rsRemoveConnection: {
    numberOfKeys: 2,
    lua: `
redis.call('SREM', KEYS[1], ARGV[1])
redis.call('SREM', KEYS[2], ARGV[2])
return redis.call('SCARD', KEYS[1])`,
  },
  // KEYS: subs, chans, node. ARGV: member, channel, entry. Returns the new count.
  rsAddSubscription: {
    numberOfKeys: 3,
    lua: `
redis.call('SADD', KEYS[1], ARGV[1])
redis.call('SADD', KEYS[3], ARGV[3])
local n = redis.call('SCARD', KEYS[1])
redis.call('HSET', KEYS[2], ARGV[2], n)
return n`,
  },
  rsRemoveSubscription: {
    numberOfKeys: 3,
    lua: `
redis.call('SREM', KEYS[1], ARGV[1])
redis.call('SREM', KEYS[3], ARGV[3])
local n = redis.call('SCARD', KEYS[1])
if n == 0 then redis.call('HDEL', KEYS[2], ARGV[2]) else redis.call('HSET', KEYS[2], ARGV[2], n) end
return n`,
  },
  // KEYS: sockets, users, info, node. ARGV: member, userId, userInfo, maxMembers, entry.
  // Returns {0} when full, else {1, firstForUser, userId1, info1, userId2, info2, ...}.
  // Idempotent: a socket already recorded as this user is counted once (a re-join, a resync replay), and a
  // count or node entry that went missing is put back, so the state converges whatever was applied before.
  rsJoinPresence: {
    numberOfKeys: 4,
    lua: `
local previous = redis.call('HGET', KEYS[1], ARGV[1])
local first = 0
if previous == ARGV[2] then
  if tonumber(redis.call('HGET', KEYS[2], ARGV[2]) or '0') < 1 then
    redis.call('HSET', KEYS[2], ARGV[2], 1)
    first = 1
  end
else
  local sockets = tonumber(redis.call('HGET', KEYS[2], ARGV[2]) or '0')
  if sockets == 0 and redis.call('HLEN', KEYS[2]) >= tonumber(ARGV[4]) then return {0} end
  if previous then
    -- The socket was joined as another user: that user loses this socket.
    if redis.call('HINCRBY', KEYS[2], previous, -1) <= 0 then
      redis.call('HDEL', KEYS[2], previous)
      redis.call('HDEL', KEYS[3], previous)
    end
  end
  redis.call('HSET', KEYS[1], ARGV[1], ARGV[2])
  redis.call('HINCRBY', KEYS[2], ARGV[2], 1)
  if sockets == 0 then first = 1 end
end
redis.call('SADD', KEYS[4], ARGV[5])
redis.call('HSET', KEYS[3], ARGV[2], ARGV[3])
local result = {1, first}
for _, value in ipairs(redis.call('HGETALL', KEYS[3])) do table.insert(result, value) end
return result`,
  },
  // KEYS: sockets, users, info, node. ARGV: member, userId, entry. Returns 1 after the user's last socket.
  // A socket not recorded as this user changes nothing shared: only its own (socket, user) entry, if stale, goes.
  rsLeavePresence: {
    numberOfKeys: 4,
    lua: `
redis.call('SREM', KEYS[4], ARGV[3])
if redis.call('HGET', KEYS[1], ARGV[1]) ~= ARGV[2] then return 0 end
redis.call('HDEL', KEYS[1], ARGV[1])
if redis.call('HINCRBY', KEYS[2], ARGV[2], -1) > 0 then return 0 end
redis.call('HDEL', KEYS[2], ARGV[2])
redis.call('HDEL', KEYS[3], ARGV[2])
return 1`,
  },
  // A closed socket with the channels it held, in one call (the caller chunks large sockets).
  // numkeys first. KEYS: node, chans, conns [, signins, online when signed in], then per held channel:
  //   subs [, sockets, users, info when presence].
  // ARGV: member, connection entry ('' keeps the connection), signed-in userId, its sign-in entry ('' when the
  //   call removes no sign-in), then per held channel:
  //   channel, subscription entry, userId, presence entry ('' when the socket was not a presence member there).
  // Returns {{vacated channel, ...}, {channel, userId, ...} of presence users whose last socket anywhere this was,
  //   1 when this was the signed-in user's last signed-in socket anywhere, else 0}.
  // Shared state changes only where it holds exactly this socket, so an unrecorded socket is a no-op.
  rsRemoveSocket: {
    lua: `${leaveCounted}
local node, chans, member = KEYS[1], KEYS[2], ARGV[1]
if ARGV[2] ~= '' then
  redis.call('SREM', KEYS[3], member)
  redis.call('SREM', node, ARGV[2])
end
local vacated, left, offline = {}, {}, 0
local k = 4
if ARGV[4] ~= '' then
  local signins, online = KEYS[4], KEYS[5]
  k = 6
  redis.call('SREM', node, ARGV[4])
  if leaveCounted(signins, online, ARGV[3], member) == 0 then offline = 1 end
end
for a = 5, #ARGV, 4 do
  local channel, subs = ARGV[a], KEYS[k]
  k = k + 1
  redis.call('SREM', node, ARGV[a + 1])
  if leaveCounted(subs, chans, channel, member) == 0 then table.insert(vacated, channel) end
  if ARGV[a + 3] ~= '' then
    local userId, sockets, users, info = ARGV[a + 2], KEYS[k], KEYS[k + 1], KEYS[k + 2]
    k = k + 3
    redis.call('SREM', node, ARGV[a + 3])
    if redis.call('HGET', sockets, member) == userId then
      redis.call('HDEL', sockets, member)
      if redis.call('HINCRBY', users, userId, -1) <= 0 then
        redis.call('HDEL', users, userId)
        redis.call('HDEL', info, userId)
        table.insert(left, channel); table.insert(left, userId)
      end
    end
  end
end
return {vacated, left, offline}`,
  },
  // KEYS: signins, online, node. ARGV: member, userId, entry. Returns 1 when it is the user's first signed-in socket anywhere.
  // Idempotent: a socket already signed in as the user is counted once (a repeated sign-in, a resync replay).
  rsSignIn: {
    numberOfKeys: 3,
    lua: `
redis.call('SADD', KEYS[3], ARGV[3])
if redis.call('SADD', KEYS[1], ARGV[1]) == 0 then return 0 end
local n = redis.call('SCARD', KEYS[1])
redis.call('HSET', KEYS[2], ARGV[2], n)
if n == 1 then return 1 end
return 0`,
  },
  // KEYS: signins, online, node. ARGV: member, userId, entry. Returns 1 after the user's last signed-in socket anywhere;
  // a socket not signed in as the user changes nothing shared.
  rsSignOut: {
    numberOfKeys: 3,
    lua: `${leaveCounted}
redis.call('SREM', KEYS[3], ARGV[3])
if leaveCounted(KEYS[1], KEYS[2], ARGV[2], ARGV[1]) == 0 then return 1 end
return 0`,
  },
  // Graceful stop, a bounded slice at a time: KEYS: nodes, node. ARGV: nodeId, count.
  // Takes the node out of the heartbeat set, undoes up to `count` of its entries, returns how many are left.
  rsDrainNode: {
    numberOfKeys: 2,
    lua: `${undoEntry}
redis.call('ZREM', KEYS[1], ARGV[1])
local users, vacated, offline = {}, {}, {}
for _, raw in ipairs(redis.call('SPOP', KEYS[2], tonumber(ARGV[2]))) do undoRaw(raw, users, vacated, nil, offline) end
return redis.call('SCARD', KEYS[2])`,
  },
  // KEYS: nodes. ARGV: nodeId, nodeTimeoutMs.
  // Returns {1 if this node was missing (reaped or new), dead node ids, number of nodes}.
  rsHeartbeat: {
    numberOfKeys: 1,
    lua: `${redisNowMs}
local added = redis.call('ZADD', KEYS[1], now, ARGV[1])
local dead = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', string.format('(%d', now - tonumber(ARGV[2])), 'LIMIT', 0, 100)
return {added, dead, redis.call('ZCARD', KEYS[1])}`,
  },
  // KEYS: nodes, node. ARGV: nodeId, nodeTimeoutMs, force ('1' removes without the liveness check).
  // Only the caller that finds the node still dead and removes it gets the result; others get nil.
  // Returns {{appId, channel, userId, ...} of users gone entirely, {appId, channel, ...} of vacated channels,
  // {appId, channel, ...} of channels that lost subscribers and kept some (each once; it may be vacated too),
  // {appId, userId, ...} of users left without a signed-in socket}.
  rsReap: {
    numberOfKeys: 2,
    lua: `${undoEntry}
if ARGV[3] ~= '1' then
  local score = redis.call('ZSCORE', KEYS[1], ARGV[1])
  if not score then return false end
  ${redisNowMs}
  if tonumber(score) > now - tonumber(ARGV[2]) then return false end
end
redis.call('ZREM', KEYS[1], ARGV[1])
local users, vacated, reduced, offline = {}, {}, { list = {}, seen = {} }, {}
for _, raw in ipairs(redis.call('SMEMBERS', KEYS[2])) do undoRaw(raw, users, vacated, reduced, offline) end
redis.call('DEL', KEYS[2])
return {users, vacated, reduced.list, offline}`,
  },
  // The heartbeat of a running node. KEYS: nodes, routed (ZSET of the nodes in routing 'subscribed', scored like nodes).
  // ARGV: nodeId, nodeTimeoutMs, routed ('1' or '0').
  // Returns {added, dead node ids, number of nodes, live nodes NOT in routed}: those hear only the bus (routing 'all',
  // or an older release that never writes routed), so routed publishers also copy channel messages to the bus.
  rsBeat: {
    numberOfKeys: 2,
    lua: `${redisNowMs}
local added = redis.call('ZADD', KEYS[1], now, ARGV[1])
if ARGV[3] == '1' then redis.call('ZADD', KEYS[2], now, ARGV[1]) else redis.call('ZREM', KEYS[2], ARGV[1]) end
local since = now - tonumber(ARGV[2])
redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', string.format('(%d', since))
local dead = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', string.format('(%d', since), 'LIMIT', 0, 100)
local allMode = 0
for _, id in ipairs(redis.call('ZRANGEBYSCORE', KEYS[1], since, '+inf')) do
  if not redis.call('ZSCORE', KEYS[2], id) then allMode = allMode + 1 end
end
return {added, dead, redis.call('ZCARD', KEYS[1]), allMode}`,
  },
  // KEYS: cache. Returns {frame, pttl} or nil.
  rsCachedEvent: {
    numberOfKeys: 1,
    readOnly: true,
    lua: `
local frame = redis.call('GET', KEYS[1])
if not frame then return false end
return {frame, redis.call('PTTL', KEYS[1])}`,
  },
} as const;

type ScriptName = keyof typeof scripts;
type Arg = string | number;

/** The script commands as ioredis adds them to a client and to its pipelines. */
type ScriptCommands<R> = { [K in ScriptName]: (...args: Arg[]) => R };
export type ScriptClient = Redis & ScriptCommands<Promise<unknown>>;
export interface ScriptPipeline extends ChainableCommander, ScriptCommands<ScriptPipeline> {}

/** Adds the scripts to a client this package owns (never to the caller's). */
export function defineScripts(redis: Redis): ScriptClient {
  for (const [name, definition] of Object.entries(scripts)) redis.defineCommand(name, definition);
  return redis as ScriptClient;
}
