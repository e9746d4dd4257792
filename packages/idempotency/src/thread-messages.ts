import { isAnswer } from './answer-codec.js';
import type { Claim, ClaimToken, IdempotentAnswer } from './store.js';

/** A worker's call to the store in the main thread. */
export type StoreRequest =
  | { id: number; op: 'claim'; appId: string; key: string }
  | { id: number; op: 'complete'; token: ClaimToken; answer: IdempotentAnswer }
  | { id: number; op: 'release'; token: ClaimToken };

/** The main thread's answer to request `id`. */
export type StoreReply = { id: number; ok: true; claim?: Claim } | { id: number; ok: false; message: string };

const isToken = (value: unknown): value is ClaimToken => {
  if (typeof value !== 'object' || value === null) return false;
  const { appId, key, id } = value as Partial<ClaimToken>;
  return typeof appId === 'string' && typeof key === 'string' && typeof id === 'string';
};

/** A request as the host may act on it, or undefined: what comes over a port is checked once, here. */
export function checkRequest(value: unknown): StoreRequest | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const request = value as Record<string, unknown>;
  if (!Number.isSafeInteger(request['id'])) return undefined;
  switch (request['op']) {
    case 'claim':
      return typeof request['appId'] === 'string' && typeof request['key'] === 'string' ? (request as StoreRequest) : undefined;
    case 'complete':
      return isToken(request['token']) && isAnswer(request['answer']) ? (request as StoreRequest) : undefined;
    case 'release':
      return isToken(request['token']) ? (request as StoreRequest) : undefined;
    default:
      return undefined;
  }
}
