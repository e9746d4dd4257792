export { createWebhooks, type WebhookQueues, type Webhooks } from './create-webhooks.js';
export { WebhookDeliveryError, WebhooksOptionError, type WebhookFailureCode } from './errors.js';
export { webhookAppFields, webhookConfigSchema, webhookDefaults, type WebhookApp, type WebhooksOptions } from './options.js';
export { defaultRetryPolicy, type RetryPolicy } from './retry-policy.js';
export type { DeliveryObserver, DropReason } from './target-queue.js';
export { webhookEventNames, type WebhookEvent, type WebhookEventName } from './webhook-event.js';
export type { WebhookConfig } from './webhook-target.js';
