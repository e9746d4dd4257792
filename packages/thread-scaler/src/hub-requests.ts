import { forwardBatch } from './message-routing.js';
import type { HubCore } from './hub-core.js';
import { post, type HubNode } from './hub-node.js';
import { removeNode } from './node-loss.js';
import { readRequest } from './read-request.js';
import { applyCall } from './state-calls.js';
import type { HubReply } from './wire.js';

/** Answers once every ack the request waits for has come (at once when there is none). */
function answerAfter(node: HubNode, acks: Promise<void>[], answer: HubReply): void {
  if (acks.length === 0) post(node, answer);
  else void Promise.all(acks).then(() => post(node, answer));
}

/**
 * One message from a node's port: checked, then acted on. Nothing here throws: an unreadable
 * request is refused with an answer when it has a readable id (and counted), a failing state call
 * is answered `HUB_FAILED`, and a request from a node no longer attached is answered `HUB_GONE`.
 */
export function receive(hub: HubCore, node: HubNode, data: unknown): void {
  const read = readRequest(data);
  if (hub.nodes.get(node.id) !== node) {
    // After its `close` (or a replacement under the same name): a call is answered, not left hanging.
    const id = read.ok ? ('id' in read.request ? read.request.id : undefined) : read.id;
    if (id !== undefined && !(read.ok && read.request.k === 'ack')) post(node, { k: 'reply', id, ok: false, code: 'HUB_GONE', message: 'this node was closed' });
    return;
  }
  if (!read.ok) {
    hub.stats.invalid++;
    if (read.id !== undefined) post(node, { k: 'reply', id: read.id, ok: false, code: 'INVALID_REQUEST', message: read.problem });
    return;
  }
  const { request } = read;
  switch (request.k) {
    case 'publish':
      forwardBatch(hub, node, request.messages);
      return;
    case 'start':
      node.routing = request.routing;
      answerAfter(node, hub.interest.welcome(node), { k: 'reply', id: request.id, ok: true, v: undefined });
      return;
    case 'ack':
      hub.interest.acked(node, request.id);
      return;
    case 'close':
      // A graceful stop: the engine removed its sockets first; whatever is left goes quietly, as in a drain.
      post(node, { k: 'reply', id: request.id, ok: true, v: undefined });
      removeNode(hub, node, false);
      return;
    case 'call': {
      let value: unknown;
      const acks: Promise<void>[] = [];
      try {
        value = applyCall(hub, node, request, acks);
      } catch (error) {
        // A bug in the state, not the caller's: answered, so the worker's call fails instead of hanging.
        post(node, { k: 'reply', id: request.id, ok: false, code: 'HUB_FAILED', message: error instanceof Error ? error.message : String(error) });
        return;
      }
      answerAfter(node, acks, { k: 'reply', id: request.id, ok: true, v: value });
    }
  }
}
