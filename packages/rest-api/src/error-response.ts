import { RealtimeError, type RealtimeErrorCode } from '@org/protocol';
import { PusherApiError } from './errors.js';
import type { PlainResponse } from './plain-http.js';

/** The JSON body of every non-2xx answer. */
export interface ErrorBody {
  error: string;
  code: number;
}

const errorContentType = 'application/json; charset=UTF-8';

function errorJson(status: number, message: string): string {
  const body: ErrorBody = { error: message, code: status };
  return JSON.stringify(body);
}

/** An error answer: `{ error, code }` with the JSON content type, then `headers`. */
export function errorAnswer(status: number, message: string, headers?: Readonly<Record<string, string>>): PlainResponse {
  return { status, headers: { 'content-type': errorContentType, ...headers }, body: errorJson(status, message) };
}

/** How a thrown error is answered. */
interface ErrorAnswer {
  status: number;
  message: string;
  headers: Record<string, string>;
  /** Not one of ours: worth reporting, and never shown to the caller. */
  unexpected: boolean;
}

const realtimeStatus: Partial<Record<RealtimeErrorCode, number>> = {
  PAYLOAD_TOO_LARGE: 413,
  APP_NOT_FOUND: 404,
};

/**
 * Maps a thrown error to its answer. Errors we raised, and the engine's
 * input errors, carry caller-safe messages; anything else becomes a bare 500
 * so internals never leak.
 */
export function answerForError(error: unknown): ErrorAnswer {
  if (error instanceof PusherApiError) {
    const headers: Record<string, string> = {};
    if (error.retryAfterSeconds !== undefined) headers['retry-after'] = String(error.retryAfterSeconds);
    return { status: error.status, message: error.message, headers, unexpected: false };
  }
  if (error instanceof RealtimeError) {
    return { status: realtimeStatus[error.code] ?? 400, message: error.message, headers: {}, unexpected: false };
  }
  return { status: 500, message: 'Internal server error', headers: {}, unexpected: true };
}
