/**
 * One node's pub/sub: plain PUBLISH/SUBSCRIBE on a single Redis (`createPlainPubSub`), sharded
 * SPUBLISH/SSUBSCRIBE on a Cluster. The bus, the outbox's release and the per-channel topics go
 * through it, never through ioredis directly, so the same node code runs on both.
 *
 * The command connection belongs to the caller (the node quits it); `close` and `disconnect` end
 * only the connection(s) the pub/sub subscribes on.
 */
export interface PubSub {
  /** Resolves to the number of receivers Redis reports. Rejects when Redis does not take it. */
  publish(topic: string, payload: string): Promise<number>;
  /** Resolves once Redis confirmed every topic; queued while Redis is down. Resubscribed after reconnects. */
  subscribe(topics: readonly string[]): Promise<void>;
  unsubscribe(topics: readonly string[]): Promise<void>;
  /** One handler for every topic's messages. */
  onMessage(handler: (topic: string, payload: string) => void): void;
  /** True while every subscription is live (after a reconnect: once resubscribed). */
  readonly ready: boolean;
  /** How many connections listen to `topic` (outbox release). On a Cluster: asked of the slot's owner. */
  listeners(topic: string): Promise<number>;
  close(): Promise<void>;
  disconnect(): void;
}
