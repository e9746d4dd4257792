import { ClusterState, type ClusterStateOptions, type Scaler } from '@org/protocol';
import { MessageChannel, type MessagePort } from 'node:worker_threads';
import type { HubCore } from './hub-core.js';
import type { HubNode, HubPort } from './hub-node.js';
import { receive } from './hub-requests.js';
import type { ScalerHubStats } from './hub-stats.js';
import { InterestTable } from './interest-table.js';
import { removeNode } from './node-loss.js';
import { createPortScaler } from './port-scaler.js';

export interface ScalerHub {
  /** Serves one node's requests arriving on `port` (the other end goes to its `createPortScaler`). */
  attach(port: HubPort, nodeId: string): void;
  /** Treats a node as gone now (its thread exited): undoes its state, reports it to a surviving node. */
  detach(nodeId: string): void;
  /** A node in this thread: a `MessageChannel` with the scaler on one end (tests, and a worker count of 1 if wanted). */
  node(nodeId?: string): Scaler;
  readonly stats: ScalerHubStats;
  /** The state every node sees, read-only by contract (tests and diagnostics). */
  readonly state: ClusterState;
  /** Closes every port; the state is cleared. */
  close(): void;
}

/**
 * The coordinator of worker threads in one process: ONE `ClusterState` answering every worker's
 * scaler calls (so counts, presence and caches are exact across workers, with no Redis), and the
 * bus between them. It runs in the main thread; each worker runs `createPortScaler` on its port.
 *
 * Which node holds which socket is kept per node (`share`), from the calls the hub itself answers:
 * it routes a channel's messages to the nodes holding a subscription or presence socket there
 * (for nodes that started with `routing: 'subscribed'`, `message-routing.ts`), and it is what the
 * hub undoes when a node's port closes without `close()` (its thread died, `node-loss.ts`).
 */
export function createScalerHub(options: ClusterStateOptions = {}): ScalerHub {
  const nodes = new Map<string, HubNode>();
  const core: HubCore = {
    state: new ClusterState(options),
    nodes,
    stats: { nodes: 0, forwarded: 0, skipped: 0, invalid: 0, lost: 0 },
    interest: new InterestTable(nodes),
  };
  let anonymous = 0;

  const hub: ScalerHub = {
    stats: core.stats,
    state: core.state,
    attach(port, nodeId) {
      const existing = nodes.get(nodeId);
      if (existing) removeNode(core, existing, true);
      const node: HubNode = { id: nodeId, port, share: new ClusterState(), routing: undefined, unanswering: false };
      nodes.set(nodeId, node);
      core.stats.nodes = nodes.size;
      port.on('message', (data) => receive(core, node, data));
      port.on('close', () => removeNode(core, node, true));
    },
    detach(nodeId) {
      const node = nodes.get(nodeId);
      if (node) removeNode(core, node, true);
    },
    node(nodeId = `thread-${++anonymous}`) {
      const { port1, port2 } = new MessageChannel();
      hub.attach(port1 as MessagePort, nodeId);
      return createPortScaler(port2, { nodeId });
    },
    close() {
      for (const node of [...nodes.values()]) {
        nodes.delete(node.id);
        node.port.close();
      }
      core.stats.nodes = 0;
      core.state.clear();
    },
  };
  return hub;
}
