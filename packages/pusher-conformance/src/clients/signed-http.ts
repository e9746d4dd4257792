import { createHash, createHmac } from 'node:crypto';
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { CaseContext } from '../case.js';
import type { AppCredentials, Endpoint } from '../target.js';
import { httpBase } from './endpoint-url.js';

/** A request to the HTTP API signed by hand, for what the SDK refuses to send (bad signatures, old timestamps…). */
export interface SignedRequest {
  method: 'GET' | 'POST';
  /** `/apps/{id}/…`, exactly as signed and sent. */
  path: string;
  /** Endpoint parameters (unencoded), signed with the auth ones. */
  params?: Record<string, string>;
  body?: string;
  /** Unix seconds; default now. */
  timestamp?: number;
  /** Sent instead of the body's MD5. */
  bodyMd5?: string;
  /** Sign with this secret instead of the app's. */
  secret?: string;
  /** Send no auth parameters at all. */
  unsigned?: boolean;
  headers?: Record<string, string>;
}

export interface HttpAnswer {
  readonly status: number;
  readonly text: string;
  /** The body parsed as JSON, or undefined. */
  readonly json: unknown;
}

/**
 * The Pusher request signature (HTTP API reference, "Authentication"): the auth parameters and
 * `body_md5` sorted by key, joined as `key=value` with `&`, unencoded; HMAC-SHA256 with the secret
 * of `METHOD\nPATH\nQUERY`, in lowercase hex.
 */
function signedQuery(app: AppCredentials, request: SignedRequest): string {
  const params: Record<string, string> = {
    ...request.params,
    auth_key: app.key,
    auth_timestamp: String(request.timestamp ?? Math.floor(Date.now() / 1_000)),
    auth_version: '1.0',
  };
  if (request.body !== undefined && request.body !== '') params['body_md5'] = request.bodyMd5 ?? createHash('md5').update(request.body).digest('hex');
  const canonical = Object.keys(params)
    .sort()
    .map((key) => `${key}=${params[key] ?? ''}`)
    .join('&');
  const signature = createHmac('sha256', request.secret ?? app.secret)
    .update(`${request.method}\n${request.path}\n${canonical}`)
    .digest('hex');
  return new URLSearchParams({ ...params, auth_signature: signature }).toString();
}

/**
 * Sends the request with node:http (not fetch: an aborted fetch leaves its pooled connection to a
 * silent server open), on a connection of its own that the case's abort destroys.
 */
export function signedFetch(context: CaseContext, node: Endpoint, app: AppCredentials, request: SignedRequest): Promise<HttpAnswer> {
  const query = request.unsigned ? new URLSearchParams(request.params ?? {}).toString() : signedQuery(app, request);
  const url = new URL(`${httpBase(node)}${request.path}${query ? `?${query}` : ''}`);
  const body = request.body === undefined ? undefined : Buffer.from(request.body);
  const headers: Record<string, string | number> = { 'content-type': 'application/json', ...request.headers };
  if (body) headers['content-length'] = body.length;
  return new Promise<HttpAnswer>((resolve, reject) => {
    const outgoing = (node.tls ? httpsRequest : httpRequest)(url, { method: request.method, headers, agent: false, signal: context.signal }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('error', reject);
      response.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        let json: unknown;
        try {
          json = JSON.parse(text);
        } catch {
          json = undefined;
        }
        resolve({ status: response.statusCode ?? 0, text, json });
      });
    });
    outgoing.on('error', reject);
    outgoing.end(body);
  });
}

/** `POST /apps/{id}/events` with this body, signed. */
export function triggerRaw(context: CaseContext, node: Endpoint, app: AppCredentials, body: unknown, extra: Partial<SignedRequest> = {}): Promise<HttpAnswer> {
  return signedFetch(context, node, app, { method: 'POST', path: `/apps/${app.id}/events`, body: typeof body === 'string' ? body : JSON.stringify(body), ...extra });
}
