import { describe, expect, it } from 'vitest';
import { createSecretMasker } from './secret-masker.js';

/** As realtime-server's config print builds it. */
const configMasker = (known: string[] = []) => createSecretMasker({ secrets: known, minLength: 4 });
const mask = '[redacted]';

describe('value(): a configuration tree', () => {
  it('masks values under secret keys, every header and URL credentials, and leaves the app key and TLS file paths', () => {
    const config = {
      applications: [{ id: '1', key: 'public-key', secret: 's3cret', webhooks: [{ url: 'https://u:p4ss@h.example/in?sig=abc&x=1#frag', headers: { 'X-Anything': 'h-value' } }] }],
      redis: { host: 'r', password: 'pw', username: 'user' },
      servers: { main: { options: { tls: { cert: '/c.pem', key: '/k.pem', passphrase: 'phrase' } } } },
      other: { api_key: 'k1', access_token: 't1', empty_password: '' },
    };
    expect(configMasker().value(config)).toEqual({
      applications: [{ id: '1', key: 'public-key', secret: mask, webhooks: [{ url: `https://${mask}:${mask}@h.example/${mask}?sig=${mask}&x=${mask}#${mask}`, headers: { 'X-Anything': mask } }] }],
      redis: { host: 'r', password: mask, username: 'user' },
      servers: { main: { options: { tls: { cert: '/c.pem', key: '/k.pem', passphrase: mask } } } },
      other: { api_key: mask, access_token: mask, empty_password: '' },
    });
  });

  it('cuts a known secret out of any other value or key (the last guard)', () => {
    expect(configMasker(['Zq7wK2pX9v']).value({ name: 'app of Zq7wK2pX9v', logging: { scopes: { 'Zq7wK2pX9v.scope': true } } })).toEqual({
      name: `app of ${mask}`,
      logging: { scopes: { [`${mask}.scope`]: true } },
    });
  });

  it('masks the path of a webhook URL (Slack, Discord and Zapier keep the credential there), not of a Redis URL', () => {
    const config = {
      applications: [{ id: '1', key: 'k', webhooks: [{ url: 'https://discord.com/api/webhooks/123/PathTokenSecret99' }, { url: 'https://h.example:8443/' }] }],
      redis: { url: 'redis://127.0.0.1:6379/2' },
      chat: { webhook: 'https://chat.example.com/hooks/id/Zq9Token' },
    };
    expect(configMasker().value(config)).toEqual({
      applications: [{ id: '1', key: 'k', webhooks: [{ url: `https://discord.com/${mask}` }, { url: 'https://h.example:8443/' }] }],
      redis: { url: 'redis://127.0.0.1:6379/2' },
      chat: { webhook: `https://chat.example.com/${mask}` },
    });
  });

  it('masks user:password@ in any other text: a Redis host, an allowed origin', () => {
    expect(configMasker().value({ redis: { host: 'user:HostPass77@10.0.0.1' }, applications: [{ allowed_origins: ['https://u:OriginPw99@app.example', 'https://app.example', '*'] }] })).toEqual({
      redis: { host: `${mask}@10.0.0.1` },
      applications: [{ allowed_origins: [`https://${mask}@app.example`, 'https://app.example', '*'] }],
    });
  });

  it('cuts a known secret in its percent-encoded, decoded and base64 forms', () => {
    const printed = configMasker(['p@ss/w0rdSecret', 'a%2Bb%2FRawQ99']).value({
      applications: [{ name: 'https://h.example/in/p%40ss%2Fw0rdSecret', description: 'p%40ss%2fw0rdSecret', other: 'a+b/RawQ99' }],
      basic: `Basic ${Buffer.from('user:p@ss/w0rdSecret').toString('base64')}`,
      b64: Buffer.from('p@ss/w0rdSecret').toString('base64url'),
    });
    const text = JSON.stringify(printed);
    for (const form of ['p%40ss%2Fw0rdSecret', 'p%40ss%2fw0rdSecret', 'p@ss/w0rdSecret', 'a+b/RawQ99', 'w0rdSecret', Buffer.from('p@ss/w0rdSecret').toString('base64url')]) {
      expect(text).not.toContain(form);
    }
    expect(text).toContain('https://h.example/in/');
  });

  it('judges the root by the key given, keeps numbers, booleans and null, and replaces a value that holds itself', () => {
    const masker = configMasker();
    expect(masker.value('Zq7wK2pX9v', { key: 'password' })).toBe(mask);
    expect(masker.value({ port: 6001, tls: false, log: null, token: 12345 })).toEqual({ port: 6001, tls: false, log: null, token: mask });
    const cyclic: Record<string, unknown> = { name: 'a' };
    cyclic['self'] = cyclic;
    expect(masker.value(cyclic)).toEqual({ name: 'a', self: mask });
  });
});

describe('value() with a host\'s key rules', () => {
  it('judges keys by the rules given: a config where `key` is a secret, `endpoint` a URL and `secrets` a map of them', () => {
    const masked = configMasker().value(
      { key: 'Zq9PrivateKey', endpoint: 'https://u:p@h.example/x?a=1', secrets: { anything: 'v1' }, url: 'not judged as a URL here' },
      { isSecretKey: (key) => key === 'key' || key === 'secret', isUrlKey: (key) => key === 'endpoint', childKey: (parent, child) => (parent === 'secrets' ? 'secret' : child) },
    );
    expect(masked).toEqual({ key: mask, endpoint: `https://${mask}:${mask}@h.example/x?a=${mask}`, secrets: { anything: mask }, url: 'not judged as a URL here' });
  });
});
