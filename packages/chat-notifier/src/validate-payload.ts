import { describe } from './colors.js';
import { InvalidChatPayload } from './errors.js';
import { ATTACHMENT_URL_KEYS, MESSAGE_URL_KEYS, type ChatPayload } from './payload.js';
import { isAbsoluteHttpUrl } from './url.js';

const EMOJI = /^:[^:\s]+:$/;

/**
 * Checks a payload against the rules Rocket.Chat enforces (and the one it
 * silently ignores: an empty message), so mistakes fail here with the field
 * named instead of as a 400 from the server or a message that never appears.
 */
export function validateChatPayload(payload: unknown): ChatPayload {
  if (!isObject(payload)) throw new InvalidChatPayload('', `expected an object, got ${describe(payload)}`);

  optionalString(payload, 'text', '');
  optionalString(payload, 'alias', '');
  optionalString(payload, 'username', '');
  optionalString(payload, 'tmid', '');
  for (const key of ['channel', 'roomId'] as const) destinations(payload[key], key);
  for (const key of MESSAGE_URL_KEYS) url(payload[key], key);
  for (const key of ['emoji', 'icon_emoji'] as const) {
    const value = payload[key];
    if (value !== undefined && (typeof value !== 'string' || !EMOJI.test(value))) {
      throw new InvalidChatPayload(key, `expected an emoji shortcode like ":rocket:", got ${describe(value)}`);
    }
  }

  const attachments = payload.attachments;
  if (attachments !== undefined) {
    if (!Array.isArray(attachments)) {
      throw new InvalidChatPayload('attachments', `expected an array, got ${describe(attachments)}`);
    }
    attachments.forEach((attachment, index) => validateAttachment(attachment, `attachments[${index}]`));
  }

  const hasText = typeof payload.text === 'string' && payload.text.trim() !== '';
  const hasAttachments = Array.isArray(attachments) && attachments.length > 0;
  if (!hasText && !hasAttachments) {
    // Rocket.Chat answers 200 to an empty message and posts nothing.
    throw new InvalidChatPayload('text', 'the message is empty: set text or add at least one attachment');
  }
  return payload as ChatPayload;
}

function validateAttachment(attachment: unknown, path: string): void {
  if (!isObject(attachment)) throw new InvalidChatPayload(path, `expected an object, got ${describe(attachment)}`);
  for (const key of ['title', 'text', 'pretext', 'author_name', 'color'] as const) {
    optionalString(attachment, key, `${path}.`);
  }
  for (const key of ATTACHMENT_URL_KEYS) url(attachment[key], `${path}.${key}`);
  for (const key of ['collapsed', 'title_link_download'] as const) {
    const value = attachment[key];
    if (value !== undefined && typeof value !== 'boolean') {
      throw new InvalidChatPayload(`${path}.${key}`, `expected true or false, got ${describe(value)}`);
    }
  }
  const ts = attachment.ts;
  if (ts !== undefined && typeof ts !== 'string' && typeof ts !== 'number') {
    throw new InvalidChatPayload(`${path}.ts`, `expected an ISO-8601 string, got ${describe(ts)}`);
  }
  const fields = attachment.fields;
  if (fields === undefined) return;
  if (!Array.isArray(fields)) throw new InvalidChatPayload(`${path}.fields`, `expected an array, got ${describe(fields)}`);
  fields.forEach((field, index) => {
    const at = `${path}.fields[${index}]`;
    if (!isObject(field)) throw new InvalidChatPayload(at, `expected { title, value, short? }, got ${describe(field)}`);
    // Rocket.Chat requires both to be truthy ("Invalid attachment field, title and value is required").
    if (typeof field.title !== 'string' || field.title.trim() === '') {
      throw new InvalidChatPayload(`${at}.title`, `must be a non-empty string, got ${describe(field.title)}`);
    }
    const value = field.value;
    const okValue =
      (typeof value === 'string' && value.trim() !== '') ||
      (typeof value === 'number' && value !== 0 && Number.isFinite(value)) ||
      value === true;
    if (!okValue) {
      throw new InvalidChatPayload(
        `${at}.value`,
        `must be non-empty (Rocket.Chat rejects "", 0 and false; send "0" as a string), got ${describe(value)}`,
      );
    }
    if (field.short !== undefined && typeof field.short !== 'boolean') {
      throw new InvalidChatPayload(`${at}.short`, `expected true or false, got ${describe(field.short)}`);
    }
  });
}

function destinations(value: unknown, key: string): void {
  if (value === undefined) return;
  const list = Array.isArray(value) ? value : [value];
  if (list.length === 0 || !list.every((v) => typeof v === 'string' && v.trim() !== '')) {
    throw new InvalidChatPayload(key, `expected "#room", "@user" or a room id (or a non-empty array of them), got ${describe(value)}`);
  }
}

function url(value: unknown, path: string): void {
  if (value === undefined) return;
  if (!isAbsoluteHttpUrl(value)) {
    throw new InvalidChatPayload(path, `expected an absolute http(s) URL, got ${describe(value)}`);
  }
}

function optionalString(object: Record<string, unknown>, key: string, prefix: string): void {
  const value = object[key];
  if (value !== undefined && typeof value !== 'string') {
    throw new InvalidChatPayload(`${prefix}${key}`, `expected a string, got ${describe(value)}`);
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
