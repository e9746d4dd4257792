import { describe, expect, it } from 'vitest';
import { createApp } from './app.js';
import { createHash, createHmac } from 'node:crypto';
import { signChannel, signRequest, signUser, signWebhook, verifyChannelAuth, verifyRequestSignature, verifyUserAuth, verifyWebhookSignature } from './signing.js';

// Reference values computed here with node:crypto directly, so the module is checked against the algorithm, not itself.
const md5Hex = (body: string) => createHash('md5').update(body).digest('hex');
const hmacSha256Hex = (secret: string, payload: string) => createHmac('sha256', secret).update(payload).digest('hex');

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

describe('signRequest', () => {
  const parse = (query: string) => new Map([...new URLSearchParams(query)]);

  it('produces the Pusher SDK signature: sorted decoded parameters, body_md5, auth_signature last', () => {
    const query = signRequest(app, { method: 'post', path: '/apps/1/events', body: '{"a":1}', timestamp: now });
    const params = parse(query);
    expect(params.get('body_md5')).toBe(md5Hex('{"a":1}'));
    const canonical = `auth_key=key&auth_timestamp=${now}&auth_version=1.0&body_md5=${md5Hex('{"a":1}')}`;
    expect(params.get('auth_signature')).toBe(hmacSha256Hex('secret', `POST\n/apps/1/events\n${canonical}`));
  });

  it('is accepted by verifyRequestSignature, with parameters that need percent-encoding', () => {
    const query = signRequest(app, { method: 'GET', path: '/apps/1/channels', query: { filter_by_prefix: 'presence-a&b=c', info: 'user_count' }, timestamp: now });
    expect(query).toContain('filter_by_prefix=presence-a%26b%3Dc');
    expect(verifyRequestSignature(app, { method: 'GET', path: '/apps/1/channels', query: parse(query), body: '' }, now)).toEqual({ ok: true });
  });

  it('signs no body_md5 without a body', () => {
    expect(parse(signRequest(app, { method: 'GET', path: '/apps/1/channels', timestamp: now })).has('body_md5')).toBe(false);
  });
});

describe('channel, user and webhook signatures', () => {
  it('signs channel auth as key:hmac(socket_id:channel[:channel_data]) and verifies only the exact input', () => {
    expect(signChannel(app, '1.2', 'private-a')).toBe(`key:${hmacSha256Hex('secret', '1.2:private-a')}`);
    const auth = signChannel(app, '1.2', 'presence-a', '{"user_id":"u"}');
    expect(verifyChannelAuth(app, '1.2', 'presence-a', auth, '{"user_id":"u"}')).toBe(true);
    expect(verifyChannelAuth(app, '1.3', 'presence-a', auth, '{"user_id":"u"}')).toBe(false);
    expect(verifyChannelAuth(app, '1.2', 'presence-a', auth, '{"user_id":"v"}')).toBe(false);
    expect(verifyChannelAuth(app, '1.2', 'presence-a', 42)).toBe(false);
  });

  it('signs user sign-in over socket_id::user::user_data', () => {
    expect(signUser(app, '1.2', '{"id":"u"}')).toBe(`key:${hmacSha256Hex('secret', '1.2::user::{"id":"u"}')}`);
    expect(verifyUserAuth(app, '1.2', '{"id":"u"}', signUser(app, '1.2', '{"id":"u"}'))).toBe(true);
    expect(verifyUserAuth(app, '1.2', '{"id":"v"}', signUser(app, '1.2', '{"id":"u"}'))).toBe(false);
  });

  it('signs webhooks as the hex HMAC of the exact body and verifies the header', () => {
    const body = '{"time_ms":1,"events":[]}';
    expect(signWebhook('secret', body)).toBe(hmacSha256Hex('secret', body));
    expect(verifyWebhookSignature('secret', body, signWebhook('secret', body))).toBe(true);
    expect(verifyWebhookSignature('secret', `${body} `, signWebhook('secret', body))).toBe(false);
    expect(verifyWebhookSignature('secret', body, undefined)).toBe(false);
  });
});
