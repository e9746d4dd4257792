import type { App } from './app.js';
import type { Scaler } from './scaler.js';

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

/**
 * Delivers member_added / member_removed to this node's subscribers only
 * while they are still true.
 *
 * A member event crosses the bus with some delay, and a socket that
 * subscribes meanwhile gets a member snapshot that already includes the
 * change and maybe a newer one: when a user left on one node and came back
 * on another, the first node's late `member_removed` would otherwise remove a
 * present user from the new subscriber's list for good. So each node checks
 * an event against the cluster state just before delivering it, one event at
 * a time per channel: the last event about a user that any socket sees is
 * checked after that user's last change, so every socket's member list ends
 * up true. Presence changes are rare next to messages; one check each is cheap.
 */
export class MemberEventDelivery {
  readonly #scaler: Scaler;
  readonly #deliver: (change: MemberChange) => void;
  readonly #onError: (error: unknown) => void;
  readonly #tails = new Map<string, Promise<void>>();

  constructor(scaler: Scaler, deliver: (change: MemberChange) => void, onError: (error: unknown) => void) {
    this.#scaler = scaler;
    this.#deliver = deliver;
    this.#onError = onError;
  }

  push(change: MemberChange): void {
    const key = `${change.app.id}\u0000${change.channel}`;
    const ahead = this.#tails.get(key) ?? Promise.resolve();
    const current: Promise<void> = ahead
      .then(async () => {
        if ((await this.#isPresent(change)) === change.present) this.#deliver(change);
      })
      .catch(this.#onError)
      .finally(() => {
        if (this.#tails.get(key) === current) this.#tails.delete(key);
      });
    this.#tails.set(key, current);
  }

  async #isPresent({ app, channel, userId }: MemberChange): Promise<boolean> {
    if (this.#scaler.isPresenceMember) return this.#scaler.isPresenceMember(app.id, channel, userId);
    return (await this.#scaler.presenceMembers(app.id, channel)).some((member) => member.userId === userId);
  }
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
