import type { PresenceMember } from '@org/protocol';
import { socketMember, type Keys } from './keys.js';

/** Entry builders: the exact strings must match between add and remove (see scripts.ts for the layout). */
export const entry = {
  connection: (connsKey: string, member: string) => JSON.stringify(['c', connsKey, member]),
  subscription: (subsKey: string, chansKey: string, member: string, appId: string, channel: string) =>
    JSON.stringify(['s', subsKey, chansKey, member, appId, channel]),
  presence: (socketsKey: string, usersKey: string, infoKey: string, member: string, appId: string, channel: string, userId: string) =>
    JSON.stringify(['p', socketsKey, usersKey, infoKey, member, appId, channel, userId]),
  signin: (signinsKey: string, onlineKey: string, member: string, appId: string, userId: string) =>
    JSON.stringify(['u', signinsKey, onlineKey, member, appId, userId]),
};

type ConnectionArgs = [conns: string, node: string, member: string, entry: string];
type SubscriptionArgs = [subs: string, chans: string, node: string, member: string, channel: string, entry: string];
type PresenceJoinArgs = [sockets: string, users: string, info: string, node: string, member: string, userId: string, userInfo: string, maxMembers: number, entry: string];
type SigninArgs = [signins: string, online: string, node: string, member: string, userId: string, entry: string];
type PresenceLeaveArgs = [sockets: string, users: string, info: string, node: string, member: string, userId: string, entry: string];

/**
 * The arguments of one node's script calls, built in one place for the live calls and for the
 * resync that replays them: a socket is `nodeId|socketId` and every change carries its entry.
 */
export class ScriptArgs {
  readonly #keys: Keys;
  readonly #nodeId: string;
  /** This node's entry set. */
  readonly nodeKey: string;

  constructor(keys: Keys, nodeId: string) {
    this.#keys = keys;
    this.#nodeId = nodeId;
    this.nodeKey = keys.node(nodeId);
  }

  /** For `rsAddConnection`. */
  connection(appId: string, socketId: string): ConnectionArgs {
    const conns = this.#keys.connections(appId);
    const member = socketMember(this.#nodeId, socketId);
    return [conns, this.nodeKey, member, entry.connection(conns, member)];
  }

  /** For `rsAddSubscription` and `rsRemoveSubscription`. */
  subscription(appId: string, channel: string, socketId: string): SubscriptionArgs {
    const subs = this.#keys.subscribers(appId, channel);
    const chans = this.#keys.channels(appId);
    const member = socketMember(this.#nodeId, socketId);
    return [subs, chans, this.nodeKey, member, channel, entry.subscription(subs, chans, member, appId, channel)];
  }

  /** For `rsJoinPresence`. */
  presenceJoin(appId: string, channel: string, socketId: string, { userId, userInfo }: PresenceMember, maxMembers: number): PresenceJoinArgs {
    const [sockets, users, info, member, presenceEntry] = this.#presence(appId, channel, socketId, userId);
    return [sockets, users, info, this.nodeKey, member, userId, userInfo, maxMembers, presenceEntry];
  }

  /** For `rsLeavePresence`. */
  presenceLeave(appId: string, channel: string, socketId: string, userId: string): PresenceLeaveArgs {
    const [sockets, users, info, member, presenceEntry] = this.#presence(appId, channel, socketId, userId);
    return [sockets, users, info, this.nodeKey, member, userId, presenceEntry];
  }

  /** For `rsSignIn` and `rsSignOut`. */
  signin(appId: string, userId: string, socketId: string): SigninArgs {
    const signins = this.#keys.signins(appId, userId);
    const online = this.#keys.online(appId);
    const member = socketMember(this.#nodeId, socketId);
    return [signins, online, this.nodeKey, member, userId, entry.signin(signins, online, member, appId, userId)];
  }

  #presence(appId: string, channel: string, socketId: string, userId: string): [string, string, string, string, string] {
    const sockets = this.#keys.presenceSockets(appId, channel);
    const users = this.#keys.presenceUsers(appId, channel);
    const info = this.#keys.presenceInfo(appId, channel);
    const member = socketMember(this.#nodeId, socketId);
    return [sockets, users, info, member, entry.presence(sockets, users, info, member, appId, channel, userId)];
  }
}
