import type { App } from './app.js';

export type ChannelType = 'public' | 'private' | 'private-encrypted' | 'presence' | 'server-to-user';

export const serverToUserPrefix = '#server-to-user-';

const allowedCharacters = /^[A-Za-z0-9_\-=@,.;]+$/;

/** The channel's type, from its prefix (anchored, unlike some peers). */
export function channelType(name: string): ChannelType {
  if (name.startsWith('private-encrypted-')) return 'private-encrypted';
  if (name.startsWith('private-')) return 'private';
  if (name.startsWith('presence-')) return 'presence';
  if (name.startsWith(serverToUserPrefix)) return 'server-to-user';
  return 'public';
}

/** Cache channels replay their last event to new subscribers. */
export function isCacheChannel(name: string): boolean {
  return (
    name.startsWith('cache-') ||
    name.startsWith('private-cache-') ||
    name.startsWith('private-encrypted-cache-') ||
    name.startsWith('presence-cache-')
  );
}

/** Why a channel name is invalid, or undefined when it is valid. */
export function channelNameProblem(name: unknown, app: App): string | undefined {
  if (typeof name !== 'string' || name.length === 0) return 'channel name must be a non-empty string';
  if (name.length > app.maxChannelNameLength) {
    return `channel name is longer than ${app.maxChannelNameLength} characters`;
  }
  const body = name.startsWith(serverToUserPrefix) ? name.slice(serverToUserPrefix.length) : name;
  if (!allowedCharacters.test(body)) return 'channel name may only contain A-Z a-z 0-9 _ - = @ , . ;';
  return undefined;
}

/** Why an event name is invalid, or undefined when it is valid. */
export function eventNameProblem(name: unknown, app: App): string | undefined {
  if (typeof name !== 'string' || name.length === 0) return 'event name must be a non-empty string';
  if (name.length > app.maxEventNameLength) return `event name is longer than ${app.maxEventNameLength} characters`;
  return undefined;
}
