import { z } from 'zod';
import { NotificationsError } from '../errors.js';
import { parseOptions } from '../options.js';
import type { Broadcaster } from './broadcaster.js';
import { signChannel, signRequest } from '@org/protocol/signing';
import { SOCKET_ID } from './socket-id.js';

const optionsSchema = z.object({
  appId: z.string().min(1),
  key: z.string().min(1),
  secret: z.string().min(1),
  host: z.string().min(1).default('127.0.0.1'),
  port: z.number().int().min(1).max(65_535).optional(),
  useTLS: z.boolean().default(false),
  timeoutMs: z.number().int().min(1).max(60_000).default(5_000),
  maxPayloadBytes: z.number().int().min(1).default(10_240),
});

export interface PusherBroadcasterOptions {
  appId: string;
  key: string;
  secret: string;
  /** Host of the Pusher-compatible HTTP API. Default `127.0.0.1`. */
  host?: string;
  /** Default 443 with TLS, 80 without. */
  port?: number;
  /** Default false. */
  useTLS?: boolean;
  /** Abort a trigger that takes longer. Default 5000 ms. */
  timeoutMs?: number;
  /** Refuse event data larger than this many bytes before sending (Pusher's limit is 10 kB). Default 10240. */
  maxPayloadBytes?: number;
}

const MAX_CHANNELS = 100;

/**
 * Triggers events through a Pusher-compatible HTTP API (`POST /apps/{appId}/events`), signing
 * each request with the app secret, and signs private-channel subscriptions.
 */
export function createPusherBroadcaster(options: PusherBroadcasterOptions): Broadcaster {
  const o = parseOptions(optionsSchema, options, 'createPusherBroadcaster');
  const port = o.port ?? (o.useTLS ? 443 : 80);
  const origin = `${o.useTLS ? 'https' : 'http'}://${o.host}:${port}`;
  const path = `/apps/${o.appId}/events`;

  return {
    async trigger(channels, event, data, triggerOptions = {}) {
      if (channels.length === 0 || channels.length > MAX_CHANNELS) {
        throw new NotificationsError('INVALID_PARAMETER', `trigger: "channels" must hold 1 to ${MAX_CHANNELS} channel names; got ${channels.length}`);
      }
      const encoded = JSON.stringify(data);
      if (Buffer.byteLength(encoded) > o.maxPayloadBytes) {
        throw new NotificationsError('PAYLOAD_TOO_LARGE', `trigger: event "${event}" data is ${Buffer.byteLength(encoded)} bytes; the limit is ${o.maxPayloadBytes}`);
      }
      const payload: Record<string, unknown> = { name: event, channels, data: encoded };
      if (triggerOptions.socketId !== undefined && SOCKET_ID.test(triggerOptions.socketId)) payload.socket_id = triggerOptions.socketId;
      const body = JSON.stringify(payload);
      const query = signRequest(o, { method: 'POST', path, body });
      let response: Response;
      try {
        response = await fetch(`${origin}${path}?${query}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body,
          signal: AbortSignal.timeout(o.timeoutMs),
        });
      } catch (cause) {
        throw new NotificationsError('BROADCAST_FAILED', `Could not reach the Pusher HTTP API at ${origin}: ${cause instanceof Error ? cause.message : String(cause)}`, { cause });
      }
      const text = await response.text();
      if (!response.ok) {
        throw new NotificationsError('BROADCAST_FAILED', `The Pusher HTTP API answered ${response.status}: ${text.slice(0, 500)}`, { status: response.status });
      }
    },

    authorizeChannel(socketId, channelName) {
      return { auth: signChannel(o, socketId, channelName) };
    },
  };
}
