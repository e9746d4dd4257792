export { createApp, appDefaults, maxUserAuthenticationTimeout, type App, type AppOptions } from './app.js';
export { defaultMaxJsonDepth, nestsDeeperThan, parseBoundedJson, stringifyOrUndefined, type BoundedJson } from './bounded-json.js';
export { createStaticAppProvider, type AppProvider } from './app-provider.js';
export { channelType, isCacheChannel, channelNameProblem, eventNameProblem, serverToUserPrefix, type ChannelType } from './channel-name.js';
export { ErrorCode } from './close-codes.js';
export { throttlePerKind } from './failure-reporter.js';
export type { Connection } from './connection.js';
export { RealtimeError, type RealtimeErrorCode } from './errors.js';
export * as frames from './frames.js';
export { hostEvents, type HostEventListener, type HostEventMap, type HostEventName, type HostEvents } from './host-events.js';
export { prepareTrigger, PreparedTrigger, type ChannelAttributes, type TriggerEvent } from './http-operations.js';
export { ClusterState, type ClusterStateOptions, type PresenceUserState } from './cluster-state.js';
export { createLocalScaler } from './local-scaler.js';
export { silentLogger, silentLoggerFactory, type LogScope, type Logger, type LoggerFactory } from './logger.js';
export { originAllowed } from './origin.js';
export { RealtimeServer, type RealtimeServerOptions } from './realtime-server.js';
export {
  signChannel,
  signRequest,
  signUser,
  signWebhook,
  signatureWindowSeconds,
  verifyChannelAuth,
  verifyRequestSignature,
  verifyUserAuth,
  verifyWebhookSignature,
  type AppCredentials,
  type RequestToSign,
  type SignatureCheck,
  type SignedRequest,
} from './signing.js';
export type { CachedEvent, ClusterMessage, ClusterMessageHandler, HeldChannel, NodeLoss, NodeLossHandler, PresenceJoin, PresenceMember, Scaler, ScalerRouting, ScalerStartOptions, SocketRemoval } from './scaler.js';
export { ServerEvents, type ServerEventListener, type ServerEventMap, type ServerEventName, type SigninRefusalReason } from './server-events.js';
export type { ConnectionRequest, Transport } from './transport.js';
