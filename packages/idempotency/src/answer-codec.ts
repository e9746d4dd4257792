import { IdempotencyError } from './errors.js';
import type { IdempotentAnswer } from './store.js';

/** An answer as JSON text, for Redis. */
export function encodeAnswer(answer: IdempotentAnswer): string {
  return JSON.stringify({ status: answer.status, body: answer.body });
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
  return { status: answer.status, body: answer.body };
}

export function isAnswer(value: unknown): value is IdempotentAnswer {
  if (typeof value !== 'object' || value === null) return false;
  const { status, body } = value as Partial<IdempotentAnswer>;
  return Number.isInteger(status) && typeof body === 'string';
}
