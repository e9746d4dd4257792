import { randomBytes } from 'node:crypto';
import PusherServer from 'pusher';
import type { AppCredentials, Endpoint } from '../target.js';

/** One master key per run, shared by the SDK that encrypts and the auth handler that gives pusher-js its key. */
const encryptionMasterKeyBase64 = randomBytes(32).toString('base64');

/** The official `pusher` Node SDK pointed at `node`: what an app's backend uses. */
export function serverSdk(node: Endpoint, app: AppCredentials, timeoutMs = 10_000): PusherServer {
  return new PusherServer({
    appId: app.id,
    key: app.key,
    secret: app.secret,
    host: node.host,
    port: String(node.port),
    useTLS: node.tls,
    timeout: timeoutMs,
    encryptionMasterKeyBase64,
  });
}
