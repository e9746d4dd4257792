export { ChatMessage, type AttachmentInput } from './chat-message.js';
export { ChatAttachment, type ChatAttachmentData } from './chat-attachment.js';
export { NAMED_COLORS, type NamedColor } from './colors.js';
export {
  ChatChannel,
  type ChatChannelOptions,
  type ChatLogger,
  type ChatSendOptions,
  type ChatSendResult,
  type ChatTransportFactory,
} from './chat-channel.js';
export { ChatChannelRegistry, type ChatChannelRegistryOptions } from './chat-channel-registry.js';
export { ChatDeliveryFailed, type ChatDeliveryResult } from './delivery.js';
export {
  resolveChatRoute,
  type ChatContent,
  type ChatNotifiable,
  type ChatNotification,
  type ChatTarget,
} from './chat-notification.js';
export {
  resolveChatConfig,
  webhookEnvName,
  type ChatInstanceConfig,
  type ResolvedChatConfig,
  type RetryPolicy,
  type RetryPolicyInput,
} from './config.js';
export type { Notifiable, Notification, NotificationChannel } from '@org/notifications/contract';
export {
  ChatNotifierError,
  ChatProxyFailure,
  CouldNotSendNotification,
  InvalidChatConfig,
  InvalidChatPayload,
  InvalidChatTarget,
  MissingChatRenderer,
  UnknownChatInstance,
  type ChatErrorResponse,
  type ChatNotifierErrorCode,
  type ChatProxyFailureCode,
  type CouldNotSendCode,
} from './errors.js';
export { isOnDemandNotifiable, OnDemandNotifiable, ON_DEMAND } from './on-demand.js';
export type { ChatAttachmentPayload, ChatField, ChatPayload } from './payload.js';
export { MAX_RESPONSE_BODY_BYTES, type ChatHttpRequest, type ChatHttpResponse, type ChatTransport } from './transport.js';
export { UndiciTransport } from './undici-transport.js';
export { validateChatPayload } from './validate-payload.js';
