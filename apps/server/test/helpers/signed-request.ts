import { createHash, createHmac } from 'node:crypto';
import type { TestApp } from './apps.js';

export interface SignOptions {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE' | 'PATCH';
  /** `/apps/{id}/...` exactly as requested. */
  path: string;
  /** Extra query parameters (unencoded). */
  params?: Record<string, string>;
  body?: string;
  /** Seconds since the epoch; default now. */
  timestamp?: number;
  /** Override the computed body_md5 (to send a wrong one). */
  bodyMd5?: string;
  /** Sign with this secret instead of the app's. */
  secret?: string;
}

/**
 * The query string of a request signed the Pusher way (auth_key,
 * auth_timestamp, auth_version, body_md5, auth_signature over
 * `METHOD\nPATH\nsorted query`), for raw fetch tests of the HTTP API.
 */
export function signedQuery(app: TestApp, options: SignOptions): string {
  const params: Record<string, string> = {
    ...options.params,
    auth_key: app.key,
    auth_timestamp: String(options.timestamp ?? Math.floor(Date.now() / 1000)),
    auth_version: '1.0',
  };
  if (options.body !== undefined && options.body !== '') {
    params['body_md5'] = options.bodyMd5 ?? createHash('md5').update(options.body).digest('hex');
  }
  const canonical = Object.keys(params)
    .sort()
    .map((key) => `${key}=${params[key] ?? ''}`)
    .join('&');
  const signature = createHmac('sha256', options.secret ?? app.secret)
    .update(`${options.method}\n${options.path}\n${canonical}`)
    .digest('hex');
  return new URLSearchParams({ ...params, auth_signature: signature }).toString();
}

/** `fetch` of a signed request to the daemon. */
export function signedFetch(baseUrl: string, app: TestApp, options: SignOptions & { headers?: Record<string, string> }): Promise<Response> {
  const init: RequestInit = { method: options.method, headers: { 'content-type': 'application/json', ...options.headers } };
  if (options.body !== undefined) init.body = options.body;
  return fetch(`${baseUrl}${options.path}?${signedQuery(app, options)}`, init);
}
