/**
 * The incoming-webhook body in Rocket.Chat's own field names
 * (see Rocket.Chat `processWebhookMessage` / `validateAttachment`).
 */
export interface ChatPayload {
  text?: string;
  /** `#room`, `@user`, a room id, or several of them. */
  channel?: string | string[];
  roomId?: string | string[];
  /** Display-name override (Rocket.Chat stores it as the message alias). */
  alias?: string;
  avatar?: string;
  emoji?: string;
  attachments?: ChatAttachmentPayload[];
  /** Thread to post into. */
  tmid?: string;
  parseUrls?: boolean;
  groupable?: boolean;
  [key: string]: unknown;
}

export interface ChatField {
  title: string;
  value: string | number | boolean;
  short?: boolean;
}

export interface ChatAttachmentPayload {
  title?: string;
  title_link?: string;
  title_link_download?: boolean;
  text?: string;
  pretext?: string;
  color?: string;
  fields?: ChatField[];
  thumb_url?: string;
  image_url?: string;
  audio_url?: string;
  video_url?: string;
  author_name?: string;
  author_link?: string;
  author_icon?: string;
  /** ISO-8601 when built by this package. */
  ts?: string | number;
  message_link?: string;
  collapsed?: boolean;
  [key: string]: unknown;
}

/** Keys whose values must be absolute http(s) URLs. */
export const ATTACHMENT_URL_KEYS = [
  'title_link',
  'thumb_url',
  'image_url',
  'audio_url',
  'video_url',
  'author_link',
  'author_icon',
  'message_link',
] as const;

export const MESSAGE_URL_KEYS = ['avatar', 'icon_url'] as const;
