import type { App } from './app.js';

/** A presence change to show this node's subscribers of a channel. */
export interface MemberChange {
  app: App;
  channel: string;
  userId: string;
  /** True for member_added, false for member_removed. */
  present: boolean;
  frame: string;
  exceptSocketId?: string | undefined;
}

const memberEventPrefix = '{"event":"pusher_internal:member_';

/** The user and direction of a member event frame from the bus; undefined for any other frame. */
export function memberChangeOf(frame: string): { userId: string; present: boolean } | undefined {
  if (!frame.startsWith(memberEventPrefix)) return undefined;
  try {
    const { event, data } = JSON.parse(frame) as { event?: unknown; data?: unknown };
    if (typeof data !== 'string') return undefined;
    const userId = (JSON.parse(data) as { user_id?: unknown }).user_id;
    if (typeof userId !== 'string') return undefined;
    if (event === 'pusher_internal:member_added') return { userId, present: true };
    if (event === 'pusher_internal:member_removed') return { userId, present: false };
    return undefined;
  } catch {
    return undefined;
  }
}
