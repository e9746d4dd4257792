import { describe, expect, it } from 'vitest';
import { mask, maskSecrets } from './mask-secrets.js';

describe('maskSecrets', () => {
  it('masks values under secret keys, every header and URL credentials, and leaves the app key and TLS file paths', () => {
    const config = {
      applications: [{ id: '1', key: 'public-key', secret: 's3cret', webhooks: [{ url: 'https://u:p4ss@h.example/in?sig=abc&x=1#frag', headers: { 'X-Anything': 'h-value' } }] }],
      redis: { host: 'r', password: 'pw', username: 'user' },
      servers: { main: { options: { tls: { cert: '/c.pem', key: '/k.pem', passphrase: 'phrase' } } } },
      other: { api_key: 'k1', access_token: 't1', empty_password: '' },
    };
    expect(maskSecrets(config)).toEqual({
      applications: [{ id: '1', key: 'public-key', secret: mask, webhooks: [{ url: `https://${mask}:${mask}@h.example/${mask}?sig=${mask}&x=${mask}#${mask}`, headers: { 'X-Anything': mask } }] }],
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

  it('masks the path of a webhook URL (Slack, Discord and Zapier keep the credential there), not of a Redis URL', () => {
    const config = {
      applications: [{ id: '1', key: 'k', webhooks: [{ url: 'https://discord.com/api/webhooks/123/PathTokenSecret99' }, { url: 'https://h.example:8443/' }] }],
      redis: { url: 'redis://127.0.0.1:6379/2' },
    };
    expect(maskSecrets(config)).toEqual({
      applications: [{ id: '1', key: 'k', webhooks: [{ url: `https://discord.com/${mask}` }, { url: 'https://h.example:8443/' }] }],
      redis: { url: 'redis://127.0.0.1:6379/2' },
    });
  });

  it('masks user:password@ in any other text: a Redis host, an allowed origin', () => {
    expect(maskSecrets({ redis: { host: 'user:HostPass77@10.0.0.1' }, applications: [{ allowed_origins: ['https://u:OriginPw99@app.example', 'https://app.example', '*'] }] })).toEqual({
      redis: { host: `${mask}@10.0.0.1` },
      applications: [{ allowed_origins: [`https://${mask}@app.example`, 'https://app.example', '*'] }],
    });
  });

  it('cuts a known secret in its percent-encoded, decoded and base64 forms', () => {
    const known = ['p@ss/w0rdSecret', 'a%2Bb%2FRawQ99'];
    const printed = maskSecrets(
      {
        applications: [{ name: 'https://h.example/in/p%40ss%2Fw0rdSecret', description: 'p%40ss%2fw0rdSecret', other: 'a+b/RawQ99' }],
        basic: `Basic ${Buffer.from('user:p@ss/w0rdSecret').toString('base64')}`,
        b64: Buffer.from('p@ss/w0rdSecret').toString('base64url'),
      },
      known,
    );
    const text = JSON.stringify(printed);
    for (const form of ['p%40ss%2Fw0rdSecret', 'p%40ss%2fw0rdSecret', 'p@ss/w0rdSecret', 'a+b/RawQ99', 'w0rdSecret', Buffer.from('p@ss/w0rdSecret').toString('base64url')]) {
      expect(text).not.toContain(form);
    }
    expect(text).toContain('https://h.example/in/');
  });
});
