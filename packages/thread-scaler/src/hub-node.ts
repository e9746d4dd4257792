import type { ClusterState, ScalerRouting } from '@org/protocol';
import type { HubReply } from './wire.js';

/** The side of a `MessagePort` the hub uses (a real port; a fake in tests). */
export interface HubPort {
  on(event: 'message', listener: (data: unknown) => void): unknown;
  on(event: 'close', listener: () => void): unknown;
  postMessage(message: HubReply): void;
  close(): void;
}

/** One attached worker, as the hub knows it. */
export interface HubNode {
  readonly id: string;
  readonly port: HubPort;
  /** This node's share of the state (its own sockets), for routing and for undoing it when the node is lost. */
  readonly share: ClusterState;
  /** Set by its `start`; until then it receives no cluster messages. */
  routing: ScalerRouting | undefined;
  /** It missed an interest ack: calls stop waiting for it (each would take `ackTimeoutMs`) until it acks again. */
  unanswering: boolean;
}

/** Sends `message` to `node`, never throwing. */
export function post(node: HubNode, message: HubReply): void {
  try {
    node.port.postMessage(message);
  } catch {
    // A port closing under us: its close event undoes the node.
  }
}
