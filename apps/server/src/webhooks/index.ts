export { createWebhooks, type WebhookApp, type Webhooks, type WebhooksOptions } from './create-webhooks.js';
export { WebhookDeliveryError, type WebhookFailureCode } from './errors.js';
export type { DeliveryObserver, DropReason } from './target-queue.js';
export { webhookEventNames, type WebhookEvent, type WebhookEventName } from './webhook-event.js';
