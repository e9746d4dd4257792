import { request, type Dispatcher } from 'undici';
import { WebhookDeliveryError } from './errors.js';

export interface WebhookRequest {
  url: string;
  /** Sent as is: the signature was computed over exactly these bytes. */
  body: string;
  headers: Record<string, string>;
}

const timeoutCodes = new Set(['UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT', 'UND_ERR_CONNECT_TIMEOUT']);

/**
 * One POST attempt. Resolves on a 2xx; rejects with a WebhookDeliveryError
 * otherwise. `abort` cancels it (shutdown); `timeoutMs` bounds the whole exchange.
 */
export async function postWebhook(dispatcher: Dispatcher, webhook: WebhookRequest, timeoutMs: number, abort: AbortSignal): Promise<void> {
  const timeout = AbortSignal.timeout(timeoutMs);
  let statusCode: number;
  try {
    const response = await request(webhook.url, {
      method: 'POST',
      headers: webhook.headers,
      body: webhook.body,
      dispatcher,
      signal: AbortSignal.any([timeout, abort]),
    });
    statusCode = response.statusCode;
    // The answer's body is not used, but must be read for the connection to be reused.
    await response.body.dump();
  } catch (error) {
    if (abort.aborted) throw new WebhookDeliveryError('ABORTED', 'delivery aborted by shutdown', { cause: error });
    const code = (error as { code?: unknown }).code;
    if (timeout.aborted || (typeof code === 'string' && timeoutCodes.has(code))) {
      throw new WebhookDeliveryError('TIMEOUT', `no answer within ${timeoutMs} ms`, { cause: error });
    }
    throw new WebhookDeliveryError('NETWORK', `request failed: ${typeof code === 'string' ? code : (error as Error).message}`, { cause: error });
  }
  if (statusCode < 200 || statusCode >= 300) {
    throw new WebhookDeliveryError('HTTP_STATUS', `receiver answered ${statusCode}`, { status: statusCode });
  }
}
