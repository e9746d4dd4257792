import { channelType, type TriggerEvent } from '@org/protocol';
import { PusherApiError } from './errors.js';

/**
 * `info=user_count` exists only for presence channels. The engine would find
 * that out after publishing, so the caller got a 400 for an event its
 * subscribers had already received; checked here, before anything is sent.
 */
export function refuseUserCountOutsidePresence(event: TriggerEvent, prefix = ''): void {
  if (!event.info?.includes('user_count')) return;
  const other = event.channels.find((channel) => channelType(channel) !== 'presence');
  if (other !== undefined) {
    throw new PusherApiError('INVALID_FIELD', `${prefix}"info" user_count is only available for presence channels, not ${JSON.stringify(other)}`);
  }
}
