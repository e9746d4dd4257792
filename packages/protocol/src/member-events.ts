import type { App } from './app.js';
import type { ClusterMessage } from './scaler.js';
import { memberAddedFrame, memberRemovedFrame } from './frames.js';

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

/** The engine's view of a member message, from this node or another: its frame is built here, once. */
export function memberChangeFrom(app: App, message: Extract<ClusterMessage, { type: 'member-added' | 'member-removed' }>): MemberChange {
  const { channel, userId } = message;
  return message.type === 'member-added'
    ? { app, channel, userId, present: true, frame: memberAddedFrame(channel, userId, message.userInfo), exceptSocketId: message.exceptSocketId }
    : { app, channel, userId, present: false, frame: memberRemovedFrame(channel, userId) };
}
