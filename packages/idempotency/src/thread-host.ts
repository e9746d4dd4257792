import type { MessagePort } from 'node:worker_threads';
import { checkRequest, type StoreReply, type StoreRequest } from './thread-messages.js';
import type { IdempotencyStore } from './store.js';

/** The main thread's side of a store shared by worker threads. */
export interface IdempotencyHost {
  /** Serves one worker's `createPortStore` over `port` (one end of a `MessageChannel`; the other goes to the worker). */
  attach(port: MessagePort): void;
  /** Stops serving `port` and closes it. */
  detach(port: MessagePort): void;
  /** Detaches every port; the store is the caller's to close. */
  close(): void;
}

/**
 * Shares one store (normally `createMemoryStore`) between the worker threads of a process: each
 * worker's `createPortStore` sends its calls here, so a key claimed in one worker is in flight or
 * done for all. Calls are served in the order they arrive; a request that is not one is ignored.
 *
 * @example
 * const host = createIdempotencyHost(createMemoryStore());
 * const { port1, port2 } = new MessageChannel();
 * host.attach(port1);
 * new Worker(script, { workerData: { idempotencyPort: port2 }, transferList: [port2] });
 */
export function createIdempotencyHost(store: IdempotencyStore): IdempotencyHost {
  const listeners = new Map<MessagePort, (message: unknown) => void>();

  const serve = (request: StoreRequest): Promise<StoreReply> => {
    const { id } = request;
    switch (request.op) {
      case 'claim':
        return store.claim(request.appId, request.key).then((claim) => ({ id, ok: true, claim }));
      case 'complete':
        return store.complete(request.token, request.answer).then(() => ({ id, ok: true }));
      case 'release':
        return store.release(request.token).then(() => ({ id, ok: true }));
    }
  };

  const detach = (port: MessagePort) => {
    const listener = listeners.get(port);
    if (!listener) return;
    listeners.delete(port);
    port.off('message', listener);
    port.close();
  };

  return {
    attach(port) {
      const listener = (message: unknown) => {
        const request = checkRequest(message);
        if (!request) return;
        void serve(request)
          .catch((error: unknown): StoreReply => ({ id: request.id, ok: false, message: error instanceof Error ? error.message : String(error) }))
          .then((reply) => {
            // The worker may be gone; its port then drops the reply.
            if (listeners.has(port)) port.postMessage(reply);
          });
      };
      listeners.set(port, listener);
      port.on('message', listener);
    },
    detach,
    close() {
      for (const port of [...listeners.keys()]) detach(port);
    },
  };
}
