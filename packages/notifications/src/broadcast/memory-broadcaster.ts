import type { Broadcaster } from './broadcaster.js';
import { signChannel } from '@org/protocol/signing';

export interface RecordedEvent {
  channels: string[];
  event: string;
  data: unknown;
  socketId?: string;
}

export interface MemoryBroadcaster extends Broadcaster {
  /** Everything triggered so far, oldest first. */
  readonly events: RecordedEvent[];
}

/**
 * Records events instead of sending them: the local default for development and tests.
 * Pass `{ key, secret }` to let it sign private channels too.
 */
export function createMemoryBroadcaster(credentials?: { key: string; secret: string }): MemoryBroadcaster {
  const events: RecordedEvent[] = [];
  const broadcaster: MemoryBroadcaster = {
    events,
    async trigger(channels, event, data, options = {}) {
      events.push({ channels: [...channels], event, data, ...(options.socketId === undefined ? {} : { socketId: options.socketId }) });
    },
  };
  if (credentials) {
    broadcaster.authorizeChannel = (socketId, channelName) => ({ auth: signChannel(credentials, socketId, channelName) });
  }
  return broadcaster;
}
