import { Counter, Gauge, type Registry } from 'prom-client';

/** Messages by kind of topic: a channel's own topic, or the node-wide bus. */
export interface ByTopicKind {
  channel: number;
  node: number;
}

/**
 * What `observeScaler` reads on each scrape: the counters of a scaler with an outbox and a
 * cluster bus. `@org/redis-scaler`'s `stats` (`RedisScalerStats`) is one.
 */
export interface ScalerStats {
  outboxMessages: number;
  outboxBytes: number;
  outboxDropped: number;
  droppedMessages: number;
  missedMessages: number;
  duplicateMessages: number;
  replayedMessages: number;
  invalidMessages: number;
  busMessagesReceived: ByTopicKind;
  busMessagesPublished: ByTopicKind;
  topics: number;
  lingeringTopics: number;
  topicSubscribes: number;
  topicUnsubscribes: number;
}

/** The `realtime_scaling_*` series, read from `stats` on each scrape. */
export function registerScalerMetrics(registry: Registry, stats: () => ScalerStats): void {
  const gauge = (name: string, help: string, value: (s: ScalerStats) => number) =>
    new Gauge({ name, help, registers: [registry], collect() { this.set(value(stats())); } });
  const counter = (name: string, help: string, value: (s: ScalerStats) => number) =>
    new Counter({ name, help, registers: [registry], collect() { this.reset(); this.inc(value(stats())); } });
  gauge('realtime_scaling_outbox_messages', 'Cluster messages held in the outbox while Redis is unreachable (sent in order once it is back)', (s) => s.outboxMessages);
  gauge('realtime_scaling_outbox_bytes', 'Bytes of the cluster messages held in the outbox', (s) => s.outboxBytes);
  counter('realtime_scaling_outbox_dropped_total', 'Cluster messages the outbox dropped, oldest first, past scaling.outbox_max_seconds or scaling.outbox_max_bytes', (s) => s.outboxDropped);
  counter('realtime_scaling_messages_dropped_total', 'Cluster messages of this node that never reached the bus (outbox bounds, or stopped while Redis was down)', (s) => s.droppedMessages);
  counter('realtime_scaling_messages_missed_total', 'Cluster messages of other nodes this node never received (it was cut off from Redis while they published)', (s) => s.missedMessages);
  counter('realtime_scaling_messages_duplicate_total', 'Cluster messages received twice (resent after an unconfirmed publish, or sent again after an outage) and ignored', (s) => s.duplicateMessages);
  counter('realtime_scaling_messages_replayed_total', 'Cluster messages of this node that Redis confirmed shortly before an outage, sent again after it in case that Redis lost them', (s) => s.replayedMessages);
  counter('realtime_scaling_messages_invalid_total', 'Malformed payloads on the cluster bus, ignored', (s) => s.invalidMessages);
  // Routing: what reaches this node, by kind of topic (a channel's topic, or the node-wide bus), and the channel topics it listens to.
  const byTopicKind = (name: string, help: string, value: (s: ScalerStats) => ByTopicKind) =>
    new Counter({
      name,
      help,
      labelNames: ['topic_kind'],
      registers: [registry],
      collect() {
        const counts = value(stats());
        this.reset();
        this.inc({ topic_kind: 'channel' }, counts.channel);
        this.inc({ topic_kind: 'node' }, counts.node);
      },
    });
  byTopicKind('realtime_scaling_bus_messages_received_total', 'Cluster messages this node received from Redis (its own echoes included), by topic kind: channel (a channel this node serves) or node (the node-wide bus)', (s) => s.busMessagesReceived);
  byTopicKind('realtime_scaling_bus_messages_published_total', 'Cluster messages this node published to Redis (resends not counted), by topic kind: channel or node (the node-wide bus, copies for nodes that hear only it included)', (s) => s.busMessagesPublished);
  gauge('realtime_scaling_topics', 'Channel topics this node is subscribed to (channels with a local subscriber, plus lingering ones)', (s) => s.topics);
  gauge('realtime_scaling_topics_lingering', 'Channel topics without a local subscriber, still subscribed until scaling.topic_linger_ms passes', (s) => s.lingeringTopics);
  counter('realtime_scaling_topic_subscribes_total', 'Channel topics this node subscribed to (first local subscriber, not within the linger)', (s) => s.topicSubscribes);
  counter('realtime_scaling_topic_unsubscribes_total', 'Channel topics this node unsubscribed from (after the linger, or past the bound of lingering topics)', (s) => s.topicUnsubscribes);
}
