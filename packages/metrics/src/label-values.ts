import type { ServerEventMap } from '@org/protocol';

/**
 * Why a transport refused a frame or request at a size limit (`@org/transport-uws`'s `TransportRefusal`).
 * Declared here so the package needs no transport; a host passing the transport's value to
 * `recordTransportRefusal` fails to compile if the transport gains a reason this list lacks.
 */
export type TransportRefusal = 'frame_too_large' | 'body_too_large' | 'head_too_large';

/** The transport callback an exception escaped from (`@org/transport-uws`'s `TransportCallback`). */
export type TransportCallback = 'upgrade' | 'open' | 'message' | 'close' | 'http';

/** What a rate limiter refused: HTTP API triggers or reads, or client events on a socket. */
export type RateLimitKind = 'backend_events' | 'read' | 'client_events';

/** Where an engine handler failed: the engine's own fixed set. */
export type HandlerKind = ServerEventMap['handler.failed']['kind'];

/**
 * Every value of the labels that are not per app, checked complete by the
 * compiler. Their series are created at 0: a series that first appears at 1
 * shows no `increase()`, so an alert would miss the first bug or refusal.
 */
export const transportRefusals = Object.keys({ frame_too_large: 0, body_too_large: 0, head_too_large: 0 } satisfies Record<TransportRefusal, 0>);
export const transportCallbacks = Object.keys({ upgrade: 0, open: 0, message: 0, close: 0, http: 0 } satisfies Record<TransportCallback, 0>);
export const handlerKinds = Object.keys({
  subscribe: 0,
  unsubscribe: 0,
  signin: 0,
  client_event: 0,
  frame: 0,
  cluster_message: 0,
  node_loss: 0,
  member_event: 0,
  subscription_count: 0,
} satisfies Record<HandlerKind, 0>);

const knownMethods = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);

/** Clients choose the method: anything unusual is one label value, so they cannot grow the series. */
export const methodLabel = (method: string): string => (knownMethods.has(method) ? method : 'OTHER');

/** The call of an idempotency key store that failed (`@org/idempotency`'s `IdempotencyStore`). */
export type IdempotencyStoreOperation = 'claim' | 'complete' | 'release';
export const idempotencyStoreOperations = Object.keys({ claim: 0, complete: 0, release: 0 } satisfies Record<IdempotencyStoreOperation, 0>);
