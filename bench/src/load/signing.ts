import { createHash, createHmac } from 'node:crypto';

/** The one app every benchmark target serves. */
export interface BenchApp {
  id: string;
  key: string;
  secret: string;
}

export const benchApp: BenchApp = { id: 'bench', key: 'bench-key', secret: 'bench-secret' };

/**
 * A signed Pusher HTTP API path with query (the algorithm of the Pusher
 * server SDKs): sorted `auth_*` params and `body_md5`, HMAC-SHA256 of
 * `METHOD\nPATH\nQUERY` with the app secret.
 */
export function signedPath(app: BenchApp, method: string, path: string, body: string, timestamp = Math.floor(Date.now() / 1000)): string {
  const params: Record<string, string> = {
    auth_key: app.key,
    auth_timestamp: String(timestamp),
    auth_version: '1.0',
  };
  if (body) params['body_md5'] = createHash('md5').update(body).digest('hex');
  const query = Object.keys(params)
    .sort()
    .map((name) => `${name}=${params[name]}`)
    .join('&');
  const signature = createHmac('sha256', app.secret).update(`${method}\n${path}\n${query}`).digest('hex');
  return `${path}?${query}&auth_signature=${signature}`;
}

/** `auth` for a private channel subscription. */
export function privateChannelAuth(app: BenchApp, socketId: string, channel: string): string {
  return `${app.key}:${createHmac('sha256', app.secret).update(`${socketId}:${channel}`).digest('hex')}`;
}

/** `auth` for a presence channel subscription with its exact `channel_data`. */
export function presenceChannelAuth(app: BenchApp, socketId: string, channel: string, channelData: string): string {
  return `${app.key}:${createHmac('sha256', app.secret).update(`${socketId}:${channel}:${channelData}`).digest('hex')}`;
}
