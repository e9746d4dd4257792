import type { Redis } from 'ioredis';
import { quit } from './redis-client.js';
import type { PubSub } from './pubsub.js';

/**
 * Pub/sub on a single Redis, over the node's two connections: PUBLISH and `PUBSUB NUMSUB` on the
 * command connection, SUBSCRIBE/UNSUBSCRIBE on the subscriber connection (offline queue on, so a
 * subscription asked for during an outage is sent once Redis is back).
 *
 * After a reconnect ioredis resubscribes every topic in ONE `SUBSCRIBE` (Redis runs it atomically,
 * `event_handler.js` readyHandler) but tells nobody when it is confirmed; a PING sent after it on
 * the same connection is answered after it, so `ready` turns true with the PING's reply.
 */
export function createPlainPubSub(commands: Redis, subscriber: Redis): PubSub {
  return new PlainPubSub(commands, subscriber);
}

class PlainPubSub implements PubSub {
  readonly #commands: Redis;
  readonly #subscriber: Redis;
  /** Topics asked for and not released, so a reconnect knows whether there is anything to confirm. */
  readonly #topics = new Set<string>();
  /** Bumped at every reconnect: a confirmation counts only for the connection it was sent on. */
  #generation = 0;
  #resubscribing = false;

  constructor(commands: Redis, subscriber: Redis) {
    this.#commands = commands;
    this.#subscriber = subscriber;
    // 'ready' is emitted on the tick after ioredis queued its resubscribe.
    subscriber.on('ready', () => {
      const generation = ++this.#generation;
      if (this.#topics.size === 0) {
        this.#resubscribing = false;
        return;
      }
      this.#resubscribing = true;
      subscriber.ping().then(
        () => {
          if (generation === this.#generation) this.#resubscribing = false;
        },
        // The connection dropped again: the next 'ready' confirms afresh.
        () => undefined,
      );
    });
  }

  get ready(): boolean {
    return this.#subscriber.status === 'ready' && !this.#resubscribing;
  }

  publish(topic: string, payload: string): Promise<number> {
    return this.#commands.publish(topic, payload);
  }

  async subscribe(topics: readonly string[]): Promise<void> {
    if (topics.length === 0) return;
    for (const topic of topics) this.#topics.add(topic);
    await this.#subscriber.subscribe(...topics);
  }

  async unsubscribe(topics: readonly string[]): Promise<void> {
    if (topics.length === 0) return;
    for (const topic of topics) this.#topics.delete(topic);
    await this.#subscriber.unsubscribe(...topics);
  }

  onMessage(handler: (topic: string, payload: string) => void): void {
    this.#subscriber.on('message', handler);
  }

  async listeners(topic: string): Promise<number> {
    const reply = (await this.#commands.pubsub('NUMSUB', topic)) as unknown[];
    return Number(reply[1] ?? 0);
  }

  close(): Promise<void> {
    return quit(this.#subscriber);
  }

  disconnect(): void {
    this.#subscriber.disconnect();
  }
}
