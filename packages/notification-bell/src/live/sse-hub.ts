import { isNotificationLiveEventName } from '@org/notifications/contract';
import { NotificationBellError } from '../errors.js';
import { isRecord } from '../normalize.js';
import type { SseHubConfig } from '../options.js';
import { backoffDelay } from './backoff.js';
import { authHeaders } from './auth-headers.js';
import type { LiveHandlers, LiveSource } from './live-source.js';

function sseTopic(config: SseHubConfig, userId: string): string {
  return config.topic ?? `/users/${userId}/notifications`;
}

function sseUrl(config: SseHubConfig, userId: string): string {
  const separator = config.hubUrl.includes('?') ? '&' : '?';
  return `${config.hubUrl}${separator}topic=${encodeURIComponent(sseTopic(config, userId))}`;
}

/**
 * Mercure-style hub: one EventSource on the user's topic. EventSource retries
 * network drops itself; when it gives up (HTTP error, readyState CLOSED) we
 * reconnect with backoff. Every open triggers a resync through onOpen.
 */
export function connectSseHub(config: SseHubConfig, userId: string, handlers: LiveHandlers): LiveSource {
  let source: EventSource | undefined;
  let closed = false;
  let attempt = 0;
  let retryTimer: ReturnType<typeof setTimeout> | undefined;

  const scheduleRetry = () => {
    if (closed) return;
    retryTimer = setTimeout(() => void start(), backoffDelay(attempt++));
  };

  async function start(): Promise<void> {
    if (closed) return;
    if (config.authEndpoint) {
      try {
        const response = await fetch(config.authEndpoint, { method: 'POST', credentials: 'include', headers: authHeaders() });
        if (!response.ok) throw new NotificationBellError('HTTP_ERROR', `SSE hub auth failed with HTTP ${response.status}.`, { status: response.status });
      } catch (error) {
        handlers.onError(error);
        scheduleRetry();
        return;
      }
    }
    if (closed) return;
    source = new EventSource(sseUrl(config, userId), { withCredentials: config.withCredentials });
    source.onopen = () => {
      attempt = 0;
      handlers.onHealthChange(true);
      handlers.onOpen();
    };
    source.onerror = () => {
      handlers.onHealthChange(false);
      if (source?.readyState === EventSource.CLOSED) {
        source.close();
        scheduleRetry();
      }
    };
    source.onmessage = (message: MessageEvent<string>) => {
      let payload: unknown;
      try {
        payload = JSON.parse(message.data);
      } catch (cause) {
        handlers.onError(new NotificationBellError('INVALID_RESPONSE', 'SSE hub sent a message that is not JSON.', { cause }));
        return;
      }
      // The contract's event names only: the store understands exactly these.
      if (isRecord(payload) && isNotificationLiveEventName(payload.event) && isRecord(payload.data)) {
        handlers.onEvent({ event: payload.event, data: payload.data });
      }
    };
  }

  void start();
  return {
    close() {
      closed = true;
      clearTimeout(retryTimer);
      source?.close();
    },
  };
}
