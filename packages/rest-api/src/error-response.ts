import { RealtimeError, type RealtimeErrorCode } from '@org/protocol';
import { PusherApiError } from './errors.js';

/** The JSON body of every non-2xx answer. */
export interface ErrorBody {
  error: string;
  code: number;
}

export function errorResponse(status: number, message: string, headers?: Record<string, string>): Response {
  const body: ErrorBody = { error: message, code: status };
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json; charset=UTF-8', ...headers },
  });
}

const realtimeStatus: Partial<Record<RealtimeErrorCode, number>> = {
  PAYLOAD_TOO_LARGE: 413,
  APP_NOT_FOUND: 404,
};

/**
 * Maps a thrown error to its answer. Errors we raised, and the engine's
 * input errors, carry caller-safe messages; anything else becomes a bare 500
 * so internals never leak. Returns whether the error was unexpected.
 */
export function responseForError(error: unknown): { response: Response; unexpected: boolean } {
  if (error instanceof PusherApiError) {
    const headers: Record<string, string> = {};
    if (error.retryAfterSeconds !== undefined) headers['retry-after'] = String(error.retryAfterSeconds);
    return { response: errorResponse(error.status, error.message, headers), unexpected: false };
  }
  if (error instanceof RealtimeError) {
    return { response: errorResponse(realtimeStatus[error.code] ?? 400, error.message), unexpected: false };
  }
  return { response: errorResponse(500, 'Internal server error'), unexpected: true };
}
