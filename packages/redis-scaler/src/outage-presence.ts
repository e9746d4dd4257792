/** A presence user in a channel of an app. */
export interface PresenceKey {
  appId: string;
  channel: string;
  userId: string;
}

export type PresenceJoinKey = PresenceKey & { userInfo: string };

/** Presence changes remembered during an outage, to announce to the other nodes afterwards. */
export const maxOutageAnnouncements = 10_000;

/** One string per (app, channel, user). */
export const presenceKey = (user: PresenceKey) => `${user.appId}\u0000${user.channel}\u0000${user.userId}`;

/**
 * Presence changes made on this node while Redis was unreachable: they reached only this node's
 * clients, so after the resync the other nodes are told (`member-added` / `member-removed`). A user
 * who left and came back within the outage (or the reverse) changed nothing for the others and is
 * forgotten. At most `maxOutageAnnouncements` of each are kept.
 */
export class OutagePresence {
  #joined = new Map<string, PresenceJoinKey>();
  #left = new Map<string, PresenceKey>();

  /** A user's first socket on this node joined. */
  joined(user: PresenceJoinKey): void {
    const key = presenceKey(user);
    if (this.#left.delete(key)) return;
    if (this.#joined.size < maxOutageAnnouncements) this.#joined.set(key, user);
  }

  /** A user's last socket on this node left. */
  left(user: PresenceKey): void {
    const key = presenceKey(user);
    if (this.#joined.delete(key)) return;
    if (this.#left.size < maxOutageAnnouncements) this.#left.set(key, user);
  }

  /** Hands over what is remembered, forgetting it (a resync announces it, or `restore`s it when it fails). */
  take(): { joined: PresenceJoinKey[]; left: PresenceKey[] } {
    const taken = { joined: [...this.#joined.values()], left: [...this.#left.values()] };
    this.#joined = new Map();
    this.#left = new Map();
    return taken;
  }

  /** Puts back what a failed resync took, for the next attempt. */
  restore({ joined, left }: { joined: readonly PresenceJoinKey[]; left: readonly PresenceKey[] }): void {
    for (const user of joined) this.#joined.set(presenceKey(user), user);
    for (const user of left) this.#left.set(presenceKey(user), user);
  }
}
