import { CSRF_TOKEN_HEADER } from '@org/notifications/contract';
import { readCsrfToken } from '../api/csrf.js';

/**
 * Headers of a live transport's authorisation request: the contract's CSRF header with the
 * page's token, read on each call so a rotated token is used; none without a token.
 */
export function authHeaders(): Record<string, string> {
  const token = readCsrfToken();
  return token ? { [CSRF_TOKEN_HEADER]: token } : {};
}
