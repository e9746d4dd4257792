import type { NodeLoss, NodeLossHandler } from '@org/protocol';
import { isReady } from './connections.js';
import type { Keys } from './keys.js';
import type { ScalerLogger } from './options.js';
import type { ScriptClient } from './scripts.js';

/** Entries undone per script call when a node stops gracefully, and calls per round trip. */
const drainSliceEntries = 500;
const drainSlicesPerRound = 2;

/** What one heartbeat learnt. */
export interface Beat {
  /** This node was missing from the heartbeat set: new, or reaped by another node while it was cut off or stalled. */
  added: boolean;
  /** Nodes silent for longer than nodeTimeoutMs (at most 100). */
  dead: string[];
  /** Nodes in the heartbeat set now. */
  nodes: number;
  /** Live nodes that hear only the node-wide bus (routing `'all'`, or an older release). */
  allModeNodes: number;
}

export interface MembershipOptions {
  commands: ScriptClient;
  keys: Keys;
  nodeId: string;
  nodeTimeoutMs: number;
  logger: ScalerLogger;
  /** A command failed: the node is cut off. */
  onDown(error: unknown): void;
}

/**
 * Which nodes are alive: this node's heartbeat, the removal of nodes that stopped beating (with
 * the engine told what they took away), and this node's own removal when it stops gracefully.
 */
export class Membership {
  readonly #options: MembershipOptions;
  readonly #nodeKey: string;
  /** Where the state a dead node took away is reported; set by `start()`. */
  onNodeLost: NodeLossHandler | undefined;
  /** This node listens to channel topics (routing `'subscribed'`); set by `start()`. */
  routed = false;

  constructor(options: MembershipOptions) {
    this.#options = options;
    this.#nodeKey = options.keys.node(options.nodeId);
  }

  /** Says this node is alive and lists the nodes that stopped saying so; undefined when Redis failed. */
  async beat(): Promise<Beat | undefined> {
    const { commands, keys, nodeId, nodeTimeoutMs } = this.#options;
    try {
      const reply = (await commands.rsBeat(keys.nodes, keys.routedNodes, nodeId, nodeTimeoutMs, this.routed ? '1' : '0')) as [number, string[], number, number];
      const [added, dead, nodes, allModeNodes] = reply;
      return { added: added === 1, dead: dead.filter((id) => id !== nodeId), nodes: Number(nodes), allModeNodes: Number(allModeNodes) };
    } catch (error) {
      this.#options.onDown(error);
      return undefined;
    }
  }

  /** Removes a dead node's state, unless another node did first or it came back, and reports what it took away. */
  async reap(deadNodeId: string): Promise<void> {
    const { commands, keys, nodeId, nodeTimeoutMs, logger } = this.#options;
    let reply: unknown;
    try {
      reply = await commands.rsReap(keys.nodes, keys.node(deadNodeId), deadNodeId, nodeTimeoutMs, '0');
    } catch (error) {
      this.#options.onDown(error);
      return;
    }
    if (!Array.isArray(reply)) return; // another node won, or it came back
    const [usersFlat, vacatedFlat, reducedFlat = [], offlineFlat = []] = reply as [string[], string[], string[]?, string[]?];
    const removed: NodeLoss['members'] = [];
    for (let i = 0; i + 2 < usersFlat.length; i += 3) removed.push({ appId: usersFlat[i]!, channel: usersFlat[i + 1]!, userId: usersFlat[i + 2]! });
    const vacated: NodeLoss['vacatedChannels'] = [];
    for (let i = 0; i + 1 < vacatedFlat.length; i += 2) vacated.push({ appId: vacatedFlat[i]!, channel: vacatedFlat[i + 1]! });
    const vacatedKeys = new Set(vacated.map(({ appId, channel }) => `${appId}\u0000${channel}`));
    const reduced: NonNullable<NodeLoss['reducedChannels']> = [];
    for (let i = 0; i + 1 < reducedFlat.length; i += 2) {
      if (!vacatedKeys.has(`${reducedFlat[i]!}\u0000${reducedFlat[i + 1]!}`)) reduced.push({ appId: reducedFlat[i]!, channel: reducedFlat[i + 1]! });
    }
    const offline: NonNullable<NodeLoss['usersOffline']> = [];
    for (let i = 0; i + 1 < offlineFlat.length; i += 2) offline.push({ appId: offlineFlat[i]!, userId: offlineFlat[i + 1]! });
    logger.info(
      { node: nodeId, deadNode: deadNodeId, membersRemoved: removed.length, channelsVacated: vacated.length, usersOffline: offline.length },
      'removed the state of a node that stopped heartbeating',
    );
    if (removed.length === 0 && vacated.length === 0 && reduced.length === 0 && offline.length === 0) return;
    try {
      this.onNodeLost?.({
        members: removed,
        vacatedChannels: vacated,
        reducedChannels: reduced,
        ...(offline.length === 0 ? {} : { usersOffline: offline }),
      });
    } catch (error) {
      logger.error({ err: error, node: nodeId }, 'the node-loss handler threw');
    }
  }

  /**
   * Graceful stop: removes this node's entries a slice at a time, so a node holding 100,000
   * channels never blocks Redis (nor hits commandTimeoutMs) in one script. Gives up at the first
   * failure: the other nodes reap what is left.
   */
  async drain(): Promise<void> {
    const { commands, keys, nodeId } = this.#options;
    const drain = () => commands.rsDrainNode(keys.nodes, this.#nodeKey, nodeId, drainSliceEntries);
    // A few slices per round trip (SPOP hands each entry to one call only); the bound only guards against entries being added meanwhile.
    for (let round = 0; isReady(commands) && round < 10_000; round++) {
      const left = await Promise.all(Array.from({ length: drainSlicesPerRound }, drain)).catch(() => undefined);
      if (left === undefined || left.some((count) => Number(count) === 0)) return;
    }
  }
}
