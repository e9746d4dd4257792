import type { ClusterMessage, ClusterState } from '@org/protocol';
import type { Health } from './health.js';
import type { Keys } from './keys.js';
import { MultiReplies } from './multi-replies.js';
import { presenceKey, type OutagePresence, type PresenceJoinKey, type PresenceKey } from './outage-presence.js';
import type { ScriptArgs } from './script-args.js';
import type { ScriptClient, ScriptPipeline } from './scripts.js';

/** A join replayed during resynchronisation is never refused: the socket is already in. */
const unlimitedMembers = 2_147_483_647;

/** Time allowed per replayed entry when a resync rewrites a node's share (measured 10–20 µs; a margin for a busy Redis). */
const resyncMsPerEntry = 0.05;

/**
 * A resync that failed (on a busy machine: it timed out, although Redis ran it) is retried with
 * twice the time, up to this factor, so that it completes instead of being retried forever.
 */
const maxRoomFactor = 64;

/** What a completed resync did. */
interface Resynced {
  /** Connections, subscriptions, presence sockets and signed-in sockets written. */
  entries: number;
  /** Nodes in the heartbeat set, this one included. */
  nodes: number;
  /** Presence changes of the outage the other nodes must hear of, joins first. */
  announcements: ClusterMessage[];
}

export interface ResyncOptions {
  commands: ScriptClient;
  keys: Keys;
  args: ScriptArgs;
  nodeId: string;
  nodeTimeoutMs: number;
  commandTimeoutMs: number;
  /** This node's own state: what is written. */
  state: ClusterState;
  outagePresence: OutagePresence;
  health: Health;
  onResynced(result: Resynced): void;
}

/**
 * Rewrites this node's whole share of Redis after an outage (or after another node reaped it)
 * in one transaction: its old entries are removed and its local state replayed, so nothing
 * another node reads is half-done, whatever Redis lost or kept meanwhile. One at a time.
 */
export class Resync {
  readonly #options: ResyncOptions;
  #running: Promise<void> | undefined;
  /** Doubles after each failed attempt, back to 1 after a completed one. */
  #roomFactor = 1;
  /** Signed-in users the replay of the current attempt made online again. */
  #usersBack: ClusterMessage[] = [];

  constructor(options: ResyncOptions) {
    this.#options = options;
  }

  /** The resync in flight, if any. */
  get running(): Promise<void> | undefined {
    return this.#running;
  }

  run(): Promise<void> {
    this.#running ??= this.#writeOwnState().finally(() => {
      this.#running = undefined;
    });
    return this.#running;
  }

  async #writeOwnState(): Promise<void> {
    const { commands, keys, args, nodeId, nodeTimeoutMs, health, outagePresence } = this.#options;
    if (health.closed || !health.commandsReady) return;
    const taken = outagePresence.take();
    this.#usersBack = [];

    const batch = new MultiReplies(commands.multi() as ScriptPipeline);
    batch.queue((m) => m.rsReap(keys.nodes, args.nodeKey, nodeId, nodeTimeoutMs, '1'));
    let nodes = 0;
    batch.queue((m) => m.rsHeartbeat(keys.nodes, nodeId, nodeTimeoutMs), (reply) => (nodes = Number((reply as unknown[])[2] ?? 0)));
    const { entries, addedAnywhere } = this.#replay(batch, taken.joined);
    const gone: PresenceKey[] = [];
    for (const user of taken.left) {
      batch.queue((m) => m.hexists(keys.presenceUsers(user.appId, user.channel), user.userId), (reply) => reply === 0 && gone.push(user));
    }

    let failure: unknown;
    try {
      failure = batch.read(await this.#execWithRoom(batch.multi, entries));
    } catch (error) {
      failure = error;
    }
    if (failure !== undefined) {
      this.#roomFactor = Math.min(2 * this.#roomFactor, maxRoomFactor);
      health.markDown(failure);
      outagePresence.restore(taken); // announced after the next attempt
      return;
    }

    this.#roomFactor = 1;
    // Presence changes made during the outage reached only this node's clients: a joined user
    // is announced when Redis had them nowhere else, a user who left when they are gone everywhere.
    const announcements: ClusterMessage[] = [];
    for (const user of taken.joined) {
      if (addedAnywhere.has(presenceKey(user))) announcements.push({ type: 'member-added', ...pick(user), userInfo: user.userInfo });
    }
    for (const user of gone) announcements.push({ type: 'member-removed', ...pick(user) });
    announcements.push(...this.#usersBack);
    this.#options.onResynced({ entries, nodes, announcements });
  }

  /** Queues this node's state; reads, for users who joined during the outage, whether the replay made them present anywhere. */
  #replay(batch: MultiReplies, joined: readonly PresenceJoinKey[]): { entries: number; addedAnywhere: Set<string> } {
    const { state, args } = this.#options;
    const before = batch.size;
    for (const [appId, sockets] of state.connectionEntries()) {
      for (const socketId of sockets) batch.queue((m) => m.rsAddConnection(...args.connection(appId, socketId)));
    }
    for (const [appId, channel, sockets] of state.subscriptionEntries()) {
      for (const socketId of sockets) batch.queue((m) => m.rsAddSubscription(...args.subscription(appId, channel, socketId)));
    }
    const joinedKeys = new Set(joined.map(presenceKey));
    const addedAnywhere = new Set<string>();
    for (const [appId, channel, userId, { userInfo, sockets }] of state.presenceEntries()) {
      const key = presenceKey({ appId, channel, userId });
      // The user's first replayed socket says whether Redis had them nowhere else (firstForUser).
      let read = joinedKeys.has(key) ? (reply: unknown) => (reply as unknown[])[1] === 1 && addedAnywhere.add(key) : undefined;
      for (const socketId of sockets) {
        batch.queue((m) => m.rsJoinPresence(...args.presenceJoin(appId, channel, socketId, { userId, userInfo }, unlimitedMembers)), read);
        read = undefined;
      }
    }
    // Signed-in sockets: a user this replay makes online again (another node reaped this one meanwhile, and told
    // watchers they went offline) is announced; receivers check it against the state before delivering it.
    for (const [appId, userId, sockets] of state.signedInEntries()) {
      let read: ((reply: unknown) => void) | undefined = (reply) => reply === 1 && this.#usersBack.push({ type: 'user-online', appId, userId });
      for (const socketId of sockets) {
        batch.queue((m) => m.rsSignIn(...args.signin(appId, userId, socketId)), read);
        read = undefined;
      }
    }
    return { entries: batch.size - before, addedAnywhere };
  }

  /**
   * Redis runs a MULTI as one command, so its reply comes after the whole replay: with the
   * connection's commandTimeoutMs a node holding 100,000 entries would time out and retry its
   * resync forever. Its commands get a timeout that grows with the replay, and with each failed
   * attempt (ioredis reads the option as each command is sent, and `exec` sends them all at once).
   */
  #execWithRoom(multi: ScriptPipeline, entries: number): ReturnType<ScriptPipeline['exec']> {
    const options = this.#options.commands.options;
    const base = options.commandTimeout;
    options.commandTimeout = this.#roomFactor * (this.#options.commandTimeoutMs + Math.ceil(entries * resyncMsPerEntry));
    try {
      return multi.exec();
    } finally {
      options.commandTimeout = base;
    }
  }
}

const pick = ({ appId, channel, userId }: PresenceKey): PresenceKey => ({ appId, channel, userId });
