import { serverToUserPrefix, type ClusterMessage } from '@org/protocol';
import type { Keys } from './keys.js';

/** Which kind of topic a PUBLISH went to or a message came from (the `topic_kind` of the bus metrics). */
export type TopicKind = 'channel' | 'node';

/**
 * Where each cluster message travels (see the README, "Routing").
 * - A channel's `broadcast`, `member-added`, `member-removed` and `subscription-count-changed` go to the channel's topic: only
 *   nodes with a local subscriber or presence socket in it listen there.
 * - `terminate-user`, `user-online` and `user-offline` (watchlist events: watchers may be on any
 *   node), `restart`, and broadcasts to `#server-to-user-` channels (no subscription is recorded for
 *   those: the user may be connected anywhere) go to the node-wide bus.
 */
export class Topics {
  /** The node-wide bus every node listens to. */
  readonly bus: string;
  readonly #keys: Keys;

  constructor(keys: Keys) {
    this.#keys = keys;
    this.bus = keys.bus;
  }

  /** A channel's topic (`keys.topic`): `<prefix>:c:<app>:<channel>`, untagged so that topics spread over a Cluster's masters. */
  channel(appId: string, channel: string): string {
    return this.#keys.topic(appId, channel);
  }

  /** The channel a message belongs to when it travels on that channel's topic; undefined for node-wide ones. */
  static channelOf(message: ClusterMessage): { appId: string; channel: string } | undefined {
    switch (message.type) {
      case 'broadcast':
        return message.channel.startsWith(serverToUserPrefix) ? undefined : message;
      case 'member-added':
      case 'member-removed':
      case 'subscription-count-changed':
        return message;
      default:
        return undefined;
    }
  }

  /** The topic a message is published on. */
  of(message: ClusterMessage): string {
    const channel = Topics.channelOf(message);
    return channel ? this.channel(channel.appId, channel.channel) : this.bus;
  }

  /** Which kind of topic a PUBLISH went to or a payload came from. */
  kind(topic: string): TopicKind {
    return topic === this.bus ? 'node' : 'channel';
  }
}
