import { hubMethods, type ArgumentKind, type HubMethod, type HubRequest } from './wire.js';
import { isClusterMessage, isHeld, isMember, isRecord, isRequestId, isString, isStrings } from './value-checks.js';

const argumentChecks: Record<ArgumentKind, (value: unknown) => boolean> = {
  string: isString,
  'optional-string': (value) => value === undefined || isString(value),
  strings: (value) => value !== undefined && isStrings(value),
  held: isHeld,
  member: isMember,
  // A member limit may be Infinity (no limit), never NaN or negative.
  limit: (value) => typeof value === 'number' && value >= 0,
  ttl: (value) => typeof value === 'number' && Number.isFinite(value) && value > 0,
};

/** What the hub makes of a worker's message: a request, or why it is refused (with the id to answer, when it has a readable one). */
export type ReadRequest = { ok: true; request: HubRequest } | { ok: false; id: number | undefined; problem: string };

/** A worker's request, checked whole before the hub acts on any of it. */
export function readRequest(data: unknown): ReadRequest {
  if (!isRecord(data)) return { ok: false, id: undefined, problem: 'not an object' };
  const id = isRequestId(data['id']) ? data['id'] : undefined;
  const refuse = (problem: string) => ({ ok: false as const, id, problem });
  switch (data['k']) {
    case 'publish':
      // All or nothing: a batch with one unreadable message is a bug on the sender's side, refused whole.
      return Array.isArray(data['messages']) && data['messages'].every(isClusterMessage)
        ? { ok: true, request: { k: 'publish', messages: data['messages'] } }
        : refuse('publish: not a list of cluster messages');
    case 'start': {
      const routing = data['routing'];
      if (id === undefined) return refuse('start: no id');
      return routing === 'all' || routing === 'subscribed' ? { ok: true, request: { k: 'start', id, routing } } : refuse('start: routing must be all or subscribed');
    }
    case 'close':
      return id === undefined ? refuse('close: no id') : { ok: true, request: { k: 'close', id } };
    case 'ack':
      return id === undefined ? refuse('ack: no id') : { ok: true, request: { k: 'ack', id } };
    case 'call': {
      if (id === undefined) return refuse('call: no id');
      const method = data['m'];
      const args = data['a'];
      if (!isString(method) || !Object.hasOwn(hubMethods, method)) return refuse('call: unknown method');
      const kinds: readonly ArgumentKind[] = hubMethods[method as HubMethod];
      if (!Array.isArray(args) || args.length > kinds.length) return refuse(`call ${method}: wrong arguments`);
      for (let index = 0; index < kinds.length; index++) if (!argumentChecks[kinds[index]!](args[index])) return refuse(`call ${method}: argument ${index + 1} is invalid`);
      return { ok: true, request: { k: 'call', id, m: method as HubMethod, a: args } };
    }
    default:
      return refuse('unknown kind');
  }
}
