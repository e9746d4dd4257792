// The live transports, a chunk of their own: connection.ts loads it with import() only when
// `broadcasting` is configured, so pages that only poll never download it.
import type { BroadcastingConfig } from '../options.js';
import type { LiveHandlers, LiveSource } from './live-source.js';
import { connectSseHub } from './sse-hub.js';
import { connectWsChannels } from './ws-channels.js';

export function openLiveSource(config: BroadcastingConfig, userId: string, handlers: LiveHandlers): LiveSource {
  return config.broadcaster === 'ws-channels' ? connectWsChannels(config, userId, handlers) : connectSseHub(config, userId, handlers);
}
