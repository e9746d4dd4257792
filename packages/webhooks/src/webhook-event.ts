/** The Pusher webhook event types, in the names Pusher and its SDKs use. */
export const webhookEventNames = ['channel_occupied', 'channel_vacated', 'member_added', 'member_removed', 'client_event', 'cache_miss', 'subscription_count'] as const;

export type WebhookEventName = (typeof webhookEventNames)[number];

/** One entry of a webhook body's `events` array, in Pusher's field names. */
export type WebhookEvent =
  | { name: 'channel_occupied' | 'channel_vacated' | 'cache_miss'; channel: string }
  | { name: 'member_added' | 'member_removed'; channel: string; user_id: string }
  /** The channel's cluster-wide subscription count after a change (apps with subscription counting on). */
  | { name: 'subscription_count'; channel: string; subscription_count: number }
  | {
      name: 'client_event';
      channel: string;
      event: string;
      /** As Pusher sends it: the event's data as a JSON string. */
      data: string;
      socket_id: string;
      /** Only on presence channels. */
      user_id?: string;
    };

/** A client event's data as Pusher's webhooks carry it: text, JSON-encoded unless it already was a string. */
export function clientEventData(data: unknown): string {
  return typeof data === 'string' ? data : JSON.stringify(data ?? null);
}
