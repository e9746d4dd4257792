import { createSecretMasker } from '@org/secret-masking';
import type { WebhookEvent, WebhookEventName } from './webhook-event.js';

/**
 * One webhook of an app, in the keys of the Pusher-style server config files
 * (snake_case), so a host can take it straight from its config.
 */
export interface WebhookConfig {
  /** Where the events are POSTed. */
  url: string;
  /** Only these event types; all when left out. */
  event_types?: readonly WebhookEventName[] | undefined;
  /** Only channels whose name starts and/or ends so (both must match when both are set). */
  filter?: { channel_name_starts_with?: string | undefined; channel_name_ends_with?: string | undefined } | undefined;
  /** Extra headers on every request; `Content-Type`, `X-Pusher-Key`, `X-Pusher-Signature`, `Content-Length` and `Host` are ours and dropped. */
  headers?: Readonly<Record<string, string>> | undefined;
  /** Bytes waiting for this webhook while its receiver is slow or down (at least 1024); over it the oldest are dropped. Default: `maxQueueBytes`. */
  max_queue_bytes?: number | undefined;
  /** Requests in flight at once (1-16); 1 keeps the order in which events happened. Default: `maxConcurrentRequests` (1). */
  max_concurrent_requests?: number | undefined;
}

/** One configured webhook, resolved once at start. */
export interface WebhookTarget {
  readonly url: string;
  /** Undefined: every event type. */
  readonly eventTypes: ReadonlySet<WebhookEventName> | undefined;
  readonly channelPrefix: string | undefined;
  readonly channelSuffix: string | undefined;
  /** The configured extra headers, minus those we own. */
  readonly headers: Readonly<Record<string, string>>;
  /** The URL without credentials or query, the only form of it that is ever logged. */
  readonly logName: string;
  /** Undefined: the default of `createWebhooks`. */
  readonly maxQueueBytes: number | undefined;
  /** Undefined: the default of `createWebhooks`. */
  readonly maxConcurrentRequests: number | undefined;
}

/** Headers a configured webhook may not set: the receiver's signature check depends on them. */
const reservedHeaders = new Set(['content-type', 'content-length', 'x-pusher-key', 'x-pusher-signature', 'host']);

export function toWebhookTarget(config: WebhookConfig): WebhookTarget {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(config.headers ?? {})) {
    if (!reservedHeaders.has(name.toLowerCase())) headers[name] = value;
  }
  return {
    url: config.url,
    eventTypes: config.event_types ? new Set(config.event_types) : undefined,
    channelPrefix: config.filter?.channel_name_starts_with,
    channelSuffix: config.filter?.channel_name_ends_with,
    headers,
    logName: safeUrlForLogs(config.url),
    maxQueueBytes: config.max_queue_bytes,
    maxConcurrentRequests: config.max_concurrent_requests,
  };
}

/** Whether this webhook wants the event: its type is selected and its channel passes the name filters. */
export function targetAccepts(target: WebhookTarget, event: WebhookEvent): boolean {
  if (target.eventTypes && !target.eventTypes.has(event.name)) return false;
  if (target.channelPrefix !== undefined && !event.channel.startsWith(target.channelPrefix)) return false;
  if (target.channelSuffix !== undefined && !event.channel.endsWith(target.channelSuffix)) return false;
  return true;
}

/** Log names by @org/secret-masking's URL rule, with the masked parts left out. */
const logNames = createSecretMasker({ urlFormat: 'bare' });

/** Tokens often travel in a webhook URL's query or user info; logs get origin and path only (a password holding `/ ? # @` included). */
export function safeUrlForLogs(url: string): string {
  return logNames.url(url);
}
