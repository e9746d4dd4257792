import type { App } from './app.js';
import { hmacSha256Hex, safeEqual } from './crypto.js';

/**
 * The `auth` string for a private, encrypted or presence channel:
 * `key:hex(hmac(secret, "socket_id:channel[:channel_data]"))`.
 */
export function signChannel(app: Pick<App, 'key' | 'secret'>, socketId: string, channel: string, channelData?: string): string {
  const payload = channelData === undefined ? `${socketId}:${channel}` : `${socketId}:${channel}:${channelData}`;
  return `${app.key}:${hmacSha256Hex(app.secret, payload)}`;
}

/** The `auth` string for user sign-in: signs `socket_id::user::user_data`. */
export function signUser(app: Pick<App, 'key' | 'secret'>, socketId: string, userData: string): string {
  return `${app.key}:${hmacSha256Hex(app.secret, `${socketId}::user::${userData}`)}`;
}

export function verifyChannelAuth(app: App, socketId: string, channel: string, auth: unknown, channelData?: string): boolean {
  return typeof auth === 'string' && safeEqual(auth, signChannel(app, socketId, channel, channelData));
}

export function verifyUserAuth(app: App, socketId: string, userData: string, auth: unknown): boolean {
  return typeof auth === 'string' && safeEqual(auth, signUser(app, socketId, userData));
}
