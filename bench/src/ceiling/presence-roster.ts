interface Member {
  info: unknown;
  sockets: number;
}

/** Presence members per channel, counted per user so a second tab adds no member. */
export class PresenceRoster {
  readonly #channels = new Map<string, Map<string, Member>>();

  /** True when this is the user's first socket in the channel. */
  join(channel: string, userId: string, info: unknown): boolean {
    let members = this.#channels.get(channel);
    if (!members) this.#channels.set(channel, (members = new Map()));
    const member = members.get(userId);
    if (member) {
      member.sockets++;
      return false;
    }
    members.set(userId, { info: info ?? {}, sockets: 1 });
    return true;
  }

  /** True when the user's last socket left the channel. */
  leave(channel: string, userId: string): boolean {
    const members = this.#channels.get(channel);
    const member = members?.get(userId);
    if (!members || !member) return false;
    if (--member.sockets > 0) return false;
    members.delete(userId);
    if (members.size === 0) this.#channels.delete(channel);
    return true;
  }

  /** The `data` of `subscription_succeeded` on a presence channel. */
  snapshot(channel: string): string {
    const members = this.#channels.get(channel) ?? new Map<string, Member>();
    const hash: Record<string, unknown> = {};
    for (const [id, member] of members) hash[id] = member.info;
    return JSON.stringify({ presence: { ids: [...members.keys()], hash, count: members.size } });
  }
}
