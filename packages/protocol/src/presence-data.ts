import type { App } from './app.js';
import { parseBoundedJson } from './bounded-json.js';
import type { PresenceMember } from './scaler.js';

export type PresenceDataResult = { ok: true; member: PresenceMember } | { ok: false; error: string };

/**
 * Reads `channel_data` (`{"user_id": ..., "user_info": ...}`) and applies the
 * app's user id and user info limits. Numeric ids become strings, as in Pusher.
 */
export function parsePresenceData(channelData: unknown, app: App): PresenceDataResult {
  if (typeof channelData !== 'string') return { ok: false, error: 'channel_data must be a JSON string' };
  const parsed = parseBoundedJson(channelData, app.maxJsonDepth);
  if (!parsed.ok) {
    return { ok: false, error: parsed.problem === 'depth' ? `channel_data nests deeper than ${app.maxJsonDepth} levels` : 'channel_data is not valid JSON' };
  }
  const { value } = parsed;
  if (typeof value !== 'object' || value === null) return { ok: false, error: 'channel_data must be a JSON object' };
  const { user_id: rawId, user_info: userInfo } = value as { user_id?: unknown; user_info?: unknown };
  const userId = typeof rawId === 'number' && Number.isFinite(rawId) ? String(rawId) : rawId;
  if (typeof userId !== 'string' || userId === '') return { ok: false, error: 'channel_data.user_id must be a non-empty string' };
  if (userId.length > app.maxUserIdLength) {
    return { ok: false, error: `channel_data.user_id is longer than ${app.maxUserIdLength} characters` };
  }
  const userInfoJson = userInfo === undefined ? '{}' : JSON.stringify(userInfo);
  if (Buffer.byteLength(userInfoJson) > app.maxPresenceUserInfoSize) {
    return { ok: false, error: `channel_data.user_info is larger than ${app.maxPresenceUserInfoSize} bytes` };
  }
  return { ok: true, member: { userId, userInfo: userInfoJson } };
}

/** The `presence` object of subscription_succeeded, built from members' JSON text. */
export function presencePayload(members: readonly PresenceMember[]): string {
  let ids = '';
  let hash = '';
  for (const [index, member] of members.entries()) {
    const id = JSON.stringify(member.userId);
    const separator = index === 0 ? '' : ',';
    ids += separator + id;
    hash += `${separator}${id}:${member.userInfo}`;
  }
  return `{"ids":[${ids}],"hash":{${hash}},"count":${members.length}}`;
}
