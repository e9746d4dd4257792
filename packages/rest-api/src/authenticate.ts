import { createHash, timingSafeEqual } from 'node:crypto';
import { verifyRequestSignature, type App } from '@org/protocol';
import { PusherApiError } from './errors.js';

export interface AuthenticatedRequest {
  /** Upper-case HTTP method. */
  method: string;
  /** The raw path as sent, without the deployment prefix. */
  path: string;
  /** Percent-decoded query parameters. */
  query: ReadonlyMap<string, string>;
  body: Uint8Array;
  /** The `Authorization` header, if any. */
  authorization: string | null;
}

const bearerPattern = /^Bearer[ \t]+(\S+)[ \t]*$/i;

/**
 * Accepts a request signed the Pusher way, or one carrying the app secret as
 * `Authorization: Bearer`. Throws 401 otherwise. The error names what was wrong,
 * never the values (secrets and signatures are not echoed).
 */
export function authenticate(app: App, request: AuthenticatedRequest): void {
  if (request.authorization !== null && /^bearer\b/i.test(request.authorization)) {
    const token = bearerPattern.exec(request.authorization)?.[1];
    if (token === undefined || !secretMatches(token, app.secret)) {
      throw new PusherApiError('UNAUTHORIZED', 'the bearer token does not match the app secret');
    }
    return;
  }

  const signed = { method: request.method, path: request.path, query: request.query, body: request.body };
  let check = verifyRequestSignature(app, signed);
  // SDKs sign channel names raw; a client whose HTTP stack percent-encoded the path still verifies.
  if (!check.ok && request.path.includes('%')) {
    const decoded = decodePath(request.path);
    if (decoded !== undefined) {
      const retry = verifyRequestSignature(app, { ...signed, path: decoded });
      if (retry.ok) check = retry;
    }
  }
  if (!check.ok) throw new PusherApiError('UNAUTHORIZED', `invalid request signature: ${check.reason}`);
}

/** Constant-time even for different lengths: both sides are hashed to 32 bytes first. */
function secretMatches(candidate: string, secret: string): boolean {
  const left = createHash('sha256').update(candidate).digest();
  const right = createHash('sha256').update(secret).digest();
  return timingSafeEqual(left, right);
}

function decodePath(path: string): string | undefined {
  try {
    return decodeURIComponent(path);
  } catch {
    return undefined;
  }
}
