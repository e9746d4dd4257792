import { signChannel, signRequest } from '@org/protocol/signing';

/** The one app every benchmark target serves. */
export interface BenchApp {
  id: string;
  key: string;
  secret: string;
}

export const benchApp: BenchApp = { id: 'bench', key: 'bench-key', secret: 'bench-secret' };

/** A signed Pusher HTTP API path with query, as the Pusher server SDKs sign it (the protocol's own signing module). */
export function signedPath(app: BenchApp, method: string, path: string, body: string, timestamp = Math.floor(Date.now() / 1000)): string {
  return `${path}?${signRequest(app, { method, path, body, timestamp })}`;
}

/** `auth` for a private channel subscription. */
export function privateChannelAuth(app: BenchApp, socketId: string, channel: string): string {
  return signChannel(app, socketId, channel);
}

/** `auth` for a presence channel subscription with its exact `channel_data`. */
export function presenceChannelAuth(app: BenchApp, socketId: string, channel: string, channelData: string): string {
  return signChannel(app, socketId, channel, channelData);
}
