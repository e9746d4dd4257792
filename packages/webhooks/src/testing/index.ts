export { startWebhookReceiver, type ReceivedWebhook, type WebhookReceiver } from './webhook-receiver.js';
