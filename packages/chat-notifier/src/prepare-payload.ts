import { contentToPayload, normalizeTarget, type ChatContent, type ChatTarget } from './chat-notification.js';
import { InvalidChatPayload, InvalidChatTarget } from './errors.js';
import type { ChatPayload } from './payload.js';
import { validateChatPayload } from './validate-payload.js';

export interface PrepareOptions {
  /** The webhook's own destination; a route equal to it is not sent. */
  readonly channel?: string | undefined;
  readonly override_channel: boolean;
  readonly max_payload_bytes: number;
  readonly instance: string;
}

export interface PreparedPayload {
  readonly payload: ChatPayload;
  readonly body: string;
}

/**
 * Content + route → the validated JSON body. `channel` is left out when the
 * route is the webhook's default, because integrations that forbid overrides
 * reject any `channel` with a 400 (Rocket.Chat#33701).
 */
export function preparePayload(target: ChatTarget | null | undefined, content: ChatContent, options: PrepareOptions): PreparedPayload {
  const payload = contentToPayload(content);
  if (target !== null && target !== undefined) payload.channel = copyTarget(normalizeTarget(target));

  if (payload.channel !== undefined && isDefault(payload.channel, options.channel)) delete payload.channel;
  if (payload.channel !== undefined && !options.override_channel) {
    throw new InvalidChatTarget(
      `Chat instance "${options.instance}" has override_channel: false, so it can only post to its default destination, not ${JSON.stringify(payload.channel)}`,
    );
  }

  const checked = validateChatPayload(payload); // normalised: what the builders would have produced
  const body = JSON.stringify(checked);
  const bytes = Buffer.byteLength(body);
  if (bytes > options.max_payload_bytes) {
    throw new InvalidChatPayload(
      '',
      `the payload is ${bytes} bytes, over the limit of ${options.max_payload_bytes} (max_payload_bytes of instance "${options.instance}")`,
    );
  }
  return { payload: checked, body };
}

function copyTarget(target: ChatTarget): string | string[] {
  return typeof target === 'string' ? target : [...target];
}

function isDefault(channel: unknown, defaultChannel: string | undefined): boolean {
  if (defaultChannel === undefined) return false;
  if (typeof channel === 'string') return channel === defaultChannel;
  return Array.isArray(channel) && channel.length === 1 && channel[0] === defaultChannel;
}
