import { describe, expect, it } from 'vitest';
import { mask, maskSecrets, maskUrl } from './mask-secrets.js';

describe('maskSecrets', () => {
  it('masks values under secret keys, every header and URL credentials, and leaves the app key and TLS file paths', () => {
    const config = {
      applications: [{ id: '1', key: 'public-key', secret: 's3cret', webhooks: [{ url: 'https://u:p4ss@h.example/in?sig=abc&x=1#frag', headers: { 'X-Anything': 'h-value' } }] }],
      redis: { host: 'r', password: 'pw', username: 'user' },
      servers: { main: { options: { tls: { cert: '/c.pem', key: '/k.pem', passphrase: 'phrase' } } } },
      other: { api_key: 'k1', access_token: 't1', empty_password: '' },
    };
    expect(maskSecrets(config)).toEqual({
      applications: [{ id: '1', key: 'public-key', secret: mask, webhooks: [{ url: `https://${mask}:${mask}@h.example/in?sig=${mask}&x=${mask}#${mask}`, headers: { 'X-Anything': mask } }] }],
      redis: { host: 'r', password: mask, username: 'user' },
      servers: { main: { options: { tls: { cert: '/c.pem', key: '/k.pem', passphrase: mask } } } },
      other: { api_key: mask, access_token: mask, empty_password: '' },
    });
  });

  it('cuts a known secret out of any other value or key (the last guard)', () => {
    expect(maskSecrets({ name: 'app of Zq7wK2pX9v', logging: { scopes: { 'Zq7wK2pX9v.scope': true } } }, ['Zq7wK2pX9v'])).toEqual({
      name: `app of ${mask}`,
      logging: { scopes: { [`${mask}.scope`]: true } },
    });
  });
});

describe('maskUrl', () => {
  it('keeps scheme, host, port and path, masks what may carry credentials, and masks a URL that does not parse whole', () => {
    expect(maskUrl('redis://127.0.0.1:6379/0')).toBe('redis://127.0.0.1:6379/0');
    expect(maskUrl('redis://:hunter2@10.0.0.5:6379/0')).toBe(`redis://:${mask}@10.0.0.5:6379/0`);
    expect(maskUrl('rediss://default@h:6380')).toBe(`rediss://${mask}@h:6380`);
    expect(maskUrl('redis//:hunter2@10.0.0.5')).toBe(mask);
    expect(maskUrl('')).toBe('');
  });
});
