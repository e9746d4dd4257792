import { randomBytes } from 'node:crypto';
import { Agent as HttpAgent } from 'node:http';
import { Agent as HttpsAgent } from 'node:https';
import PusherServer from 'pusher';
import type { CaseContext } from '../case.js';
import type { AppCredentials, Endpoint } from '../target.js';

/** One master key per run, shared by the SDK that encrypts and the auth handler that gives pusher-js its key. */
const encryptionMasterKeyBase64 = randomBytes(32).toString('base64');

/**
 * The official `pusher` Node SDK pointed at `node`, for requests (trigger, sendToUser, terminate…):
 * what an app's backend uses. Its connections go through an agent of the case's, destroyed when the
 * case ends, so a request a silent server never answers does not outlive its case.
 */
export function serverSdk(context: CaseContext, node: Endpoint, app: AppCredentials): PusherServer {
  const agent = node.tls ? new HttpsAgent() : new HttpAgent();
  context.defer(() => agent.destroy());
  return new PusherServer({
    appId: app.id,
    key: app.key,
    secret: app.secret,
    host: node.host,
    port: String(node.port),
    useTLS: node.tls,
    agent,
    encryptionMasterKeyBase64,
  });
}

/** The SDK for signing only (channel authorization, user authentication), as an app's auth endpoint: it sends nothing. */
export function signer(app: AppCredentials): PusherServer {
  return new PusherServer({ appId: app.id, key: app.key, secret: app.secret, host: '127.0.0.1', encryptionMasterKeyBase64 });
}
