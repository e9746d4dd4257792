import type { ClusterState, HeldChannel, SocketRemoval } from '@org/protocol';
import { socketMember, type Keys } from './keys.js';
import { entry } from './script-args.js';
import type { ScriptClient } from './scripts.js';

/**
 * Channels per `rsRemoveSocket` call. One call blocks Redis for the time its
 * channels take (5 to 10 ms per 1,000 measured on loopback), so other
 * clients' commands run between calls.
 */
export const removalChunkChannels = 1_000;

/**
 * Calls written at once (one round trip). A socket holding up to 5,000
 * channels is cleaned up in one round trip; beyond, one per 5,000. Writing
 * 100 calls at once would make the last ones wait for the first ~99 and
 * exceed `commandTimeoutMs`, and would hold back every other command of this
 * node (one auto-pipeline runs at a time) for a second.
 */
const removalWaveChunks = 5;

/** One `rsRemoveSocket` call: the channels it covers and its arguments (numkeys first). */
export interface RemovalCall {
  held: readonly HeldChannel[];
  args: (string | number)[];
}

/**
 * The script calls that remove a closed socket and the channels it held.
 * The connection itself (and its sign-in, `signedInAs`) goes with the first
 * call; a socket holding nothing is one call for the connection alone.
 */
export function removalCalls(
  keys: Keys,
  nodeId: string,
  appId: string,
  socketId: string,
  held: readonly HeldChannel[],
  signedInAs?: string,
  chunk = removalChunkChannels,
): RemovalCall[] {
  const member = socketMember(nodeId, socketId);
  const nodeKey = keys.node(nodeId);
  const chans = keys.channels(appId);
  const conns = keys.connections(appId);
  const calls: RemovalCall[] = [];
  for (let start = 0; start === 0 || start < held.length; start += chunk) {
    const slice = held.slice(start, start + chunk);
    const keyList = [nodeKey, chans, conns];
    const argv = [member, start === 0 ? entry.connection(conns, member) : ''];
    if (start === 0 && signedInAs !== undefined) {
      const signins = keys.signins(appId, signedInAs);
      const online = keys.online(appId);
      keyList.push(signins, online);
      argv.push(signedInAs, entry.signin(signins, online, member, appId, signedInAs));
    } else {
      argv.push('', '');
    }
    for (const { channel, presenceUserId } of slice) {
      const subs = keys.subscribers(appId, channel);
      keyList.push(subs);
      argv.push(channel, entry.subscription(subs, chans, member, appId, channel));
      if (presenceUserId === undefined) {
        argv.push('', '');
        continue;
      }
      const sockets = keys.presenceSockets(appId, channel);
      const users = keys.presenceUsers(appId, channel);
      const info = keys.presenceInfo(appId, channel);
      keyList.push(sockets, users, info);
      argv.push(presenceUserId, entry.presence(sockets, users, info, member, appId, channel, presenceUserId));
    }
    calls.push({ held: slice, args: [keyList.length, ...keyList, ...argv] });
  }
  return calls;
}

/** Reads a `rsRemoveSocket` reply into `into`. */
function addRemovalReply(into: SocketRemoval, reply: unknown): void {
  const [vacated, left, offline] = reply as [string[], string[], number];
  if (offline === 1) into.userWentOffline = true;
  for (const channel of vacated) into.vacated.push(String(channel));
  for (let i = 0; i + 1 < left.length; i += 2) into.membersLeft.push({ channel: String(left[i]), userId: String(left[i + 1]) });
}

/** Removes the socket from this node's own state, chunk by chunk as `calls`: each chunk's local answer (the sign-in with the first). */
export function removeLocally(state: ClusterState, appId: string, socketId: string, calls: readonly RemovalCall[], signedInAs?: string): SocketRemoval[] {
  state.removeConnection(appId, socketId);
  return calls.map((call, index) => {
    const local = state.removeHeld(appId, socketId, call.held);
    if (index === 0 && signedInAs !== undefined && state.signOut(appId, signedInAs, socketId)) local.userWentOffline = true;
    return local;
  });
}

/** Adds a chunk's local answer to the whole answer. */
export function addLocalRemoval(into: SocketRemoval, local: SocketRemoval): void {
  into.vacated.push(...local.vacated);
  into.membersLeft.push(...local.membersLeft);
  if (local.userWentOffline) into.userWentOffline = true;
}

/**
 * Sends the calls a wave at a time and gathers Redis's answers. A call Redis did not run is the
 * fallback rule per chunk: `down` is told, and that chunk and every later one (unsent: the node is
 * down) are answered from `locals`, this node's own answers chunk by chunk, through `answerLocally`.
 */
export async function removeInWaves(
  redis: ScriptClient,
  calls: readonly RemovalCall[],
  locals: readonly SocketRemoval[],
  down: (error: unknown) => void,
  answerLocally: (into: SocketRemoval, local: SocketRemoval) => void,
): Promise<SocketRemoval> {
  const removal: SocketRemoval = { vacated: [], membersLeft: [] };
  let connected = true;
  for (let start = 0; start < calls.length; start += removalWaveChunks) {
    const wave = calls.slice(start, start + removalWaveChunks);
    // Sent in one tick, so auto-pipelining writes the whole wave at once: one round trip per wave.
    const replies = connected ? await Promise.allSettled(wave.map((call) => redis.rsRemoveSocket(...call.args))) : [];
    wave.forEach((_, i) => {
      const reply = replies[i];
      if (reply?.status === 'fulfilled') return addRemovalReply(removal, reply.value);
      if (reply) {
        down(reply.reason);
        connected = false;
      }
      answerLocally(removal, locals[start + i]!);
    });
  }
  return removal;
}
