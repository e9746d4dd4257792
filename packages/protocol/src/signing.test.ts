import { describe, expect, it } from 'vitest';
import { createApp } from './app.js';
import { hmacSha256Hex, md5Hex } from './crypto.js';
import { verifyRequestSignature } from './request-signature.js';

const app = createApp({ id: '1', key: 'key', secret: 'secret' });
const now = 1_700_000_000;

function signed(method: string, path: string, params: Record<string, string>, body = '') {
  const query = new Map(Object.entries({ auth_key: 'key', auth_timestamp: String(now), auth_version: '1.0', ...params }));
  if (body) query.set('body_md5', md5Hex(body));
  const canonical = [...query.keys()].sort().map((k) => `${k}=${query.get(k)}`).join('&');
  query.set('auth_signature', hmacSha256Hex('secret', `${method}\n${path}\n${canonical}`));
  return { method, path, query, body };
}

describe('verifyRequestSignature', () => {
  it('accepts a correctly signed request with decoded comma-separated values', () => {
    expect(verifyRequestSignature(app, signed('GET', '/apps/1/channels', { info: 'user_count,subscription_count' }), now)).toEqual({ ok: true });
  });

  it('checks the body against body_md5', () => {
    const request = signed('POST', '/apps/1/events', {}, '{"a":1}');
    expect(verifyRequestSignature(app, request, now).ok).toBe(true);
    expect(verifyRequestSignature(app, { ...request, body: '{"a":2}' }, now)).toEqual({ ok: false, reason: 'body_md5 does not match the body' });
  });

  it('refuses timestamps outside the 600 second window, a wrong key and a tampered path', () => {
    const request = signed('GET', '/apps/1/channels', {});
    expect(verifyRequestSignature(app, request, now + 601).ok).toBe(false);
    expect(verifyRequestSignature(app, { ...request, path: '/apps/2/channels' }, now).ok).toBe(false);
    const wrongKey = createApp({ id: '1', key: 'other', secret: 'secret' });
    expect(verifyRequestSignature(wrongKey, request, now)).toEqual({ ok: false, reason: 'auth_key does not match the app' });
  });

  it('refuses a body without body_md5', () => {
    const request = signed('POST', '/apps/1/events', {});
    expect(verifyRequestSignature(app, { ...request, body: '{}' }, now)).toEqual({ ok: false, reason: 'body_md5 is missing' });
  });
});
