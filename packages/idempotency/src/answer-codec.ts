import { IdempotencyError } from './errors.js';
import type { IdempotentAnswer } from './store.js';

/** An answer as JSON text, for Redis. */
export function encodeAnswer(answer: IdempotentAnswer): string {
  return JSON.stringify(copyAnswer(answer));
}

/** An answer from JSON text or a structured clone; anything else is `UNAVAILABLE` (what the store holds is not ours). */
export function decodeAnswer(value: unknown): IdempotentAnswer {
  let answer = value;
  if (typeof value === 'string') {
    try {
      answer = JSON.parse(value);
    } catch (error) {
      throw new IdempotencyError('UNAVAILABLE', 'the store holds an answer that is not JSON', { cause: error });
    }
  }
  if (!isAnswer(answer)) throw new IdempotencyError('UNAVAILABLE', 'the store holds an answer without a status and a body');
  return copyAnswer(answer);
}

/** Just an answer's own fields (what a caller passed may carry more), `request` only when there is one. */
export function copyAnswer(answer: IdempotentAnswer): IdempotentAnswer {
  return answer.request === undefined ? { status: answer.status, body: answer.body } : { status: answer.status, body: answer.body, request: answer.request };
}

export function isAnswer(value: unknown): value is IdempotentAnswer {
  if (typeof value !== 'object' || value === null) return false;
  const { status, body, request } = value as Partial<IdempotentAnswer>;
  return Number.isInteger(status) && typeof body === 'string' && (request === undefined || typeof request === 'string');
}
