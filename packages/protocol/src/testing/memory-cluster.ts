import { createLocalScaler } from '../local-scaler.js';
import type { ClusterMessage, ClusterMessageHandler, Scaler } from '../scaler.js';

/**
 * Several in-process nodes over one in-memory state and bus: the local
 * scaler's state, shared, with messages delivered to the other nodes on a
 * later tick (as a real bus would). For tests of multi-node behaviour
 * without Redis; a node's `close()` only stops its delivery.
 */
export function createMemoryCluster(): { node(): Scaler } {
  const shared = createLocalScaler();
  const handlers = new Map<string, ClusterMessageHandler>();
  let nodes = 0;

  return {
    node(): Scaler {
      const nodeId = `memory-${++nodes}`;
      return {
        ...shared,
        nodeId,
        async start(onMessage) {
          handlers.set(nodeId, onMessage);
        },
        publish(message: ClusterMessage) {
          const copy = JSON.parse(JSON.stringify(message)) as ClusterMessage;
          setImmediate(() => {
            for (const [id, handler] of handlers) if (id !== nodeId) handler(copy);
          });
        },
        async close() {
          handlers.delete(nodeId);
        },
      };
    },
  };
}
