import type { TestApp } from './apps.js';
import { backend } from './clients.js';
import type { RunningDaemon } from './daemon.js';
import { connectRaw, type RawSocket } from './raw-socket.js';

/** The presence member a socket joins as: a user id, or the whole `channel_data`. */
export type RawMember = string | { user_id: string; user_info?: unknown };

/**
 * A raw socket of `app` on `daemon`, subscribed to `channel` once
 * `subscription_succeeded` arrived; private and presence channels are signed
 * by the official SDK (presence as `member`, default `u1`).
 */
export async function subscribedRaw(daemon: RunningDaemon, app: TestApp, channel: string, member: RawMember = 'u1'): Promise<{ socket: RawSocket; socketId: string }> {
  const { socket, socketId } = await connectRaw(daemon, app.key);
  const sdk = backend(daemon, app);
  if (channel.startsWith('presence-')) {
    socket.subscribe(channel, sdk.authorizeChannel(socketId, channel, (typeof member === 'string' ? { user_id: member } : member) as { user_id: string }));
  } else if (channel.startsWith('private-')) {
    socket.subscribe(channel, sdk.authorizeChannel(socketId, channel));
  } else {
    socket.subscribe(channel);
  }
  await socket.next('pusher_internal:subscription_succeeded');
  return { socket, socketId };
}
