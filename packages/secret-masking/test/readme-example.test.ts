import { describe, expect, it } from 'vitest';
import { createSecretMasker, cutSecrets, headerSecrets, urlCredentials, type MaskingRule } from '../src/index.js';

describe('the README examples', () => {
  it('mask as shown', () => {
    const proxy = urlCredentials('http://bob:pr0xy-pa55@proxy.example:3128');
    const masker = createSecretMasker({ secrets: ['Zq9ApiToken', ...proxy.secrets, ...headerSecrets({ Authorization: 'Bearer Zq9Token' }).secrets], identifiers: proxy.identifiers });
    expect(masker.url('https://deploy:hunter2@hooks.example/in?sig=abc#x')).toBe('https://[redacted]:[redacted]@hooks.example/in?sig=[redacted]#[redacted]');
    expect(masker.text('retry#2-https://deploy:hunter2@proxy.example/x failed; token Zq9Token')).toBe('retry#2-https://[redacted]@proxy.example/x failed; token [redacted]');
  });

  it('the URL tables', () => {
    const compact = createSecretMasker({ marker: '***', urlFormat: 'compact' });
    expect(compact.url('http://user:p/w@d@proxy.example:3128')).toBe('http://***@proxy.example:3128');
    expect(compact.url('http://user:Pa55w0rd?q1@proxy.example:3128')).toBe('http://***@proxy.example:3128');
    expect(compact.url('https://h.example/x?token=abc@Zq9Secret')).toBe('https://***');
    expect(compact.url('https://h.example/users/@alice/profile')).toBe('https://***@alice/profile');
    const url = 'https://u:pw@h.example/in?sig=abc&x=1#frag';
    expect(createSecretMasker({ marker: 'M' }).url(url)).toBe('https://M:M@h.example/in?sig=M&x=M#M');
    expect(createSecretMasker({ marker: 'M', urlFormat: 'compact' }).url(url)).toBe('https://M@h.example/in?M');
    expect(createSecretMasker({ marker: 'M', urlFormat: 'bare' }).url(url)).toBe('https://h.example/in');
  });

  it('cutSecrets', () => {
    const moreFromTheFile = Array.from({ length: 1_000 }, (_, i) => `${i}: ${'v'.repeat(4_000)}`);
    const candidates = ['zq9wk2p', 'x'.repeat(4_096), ...moreFromTheFile];
    expect(cutSecrets('bad value near "ZQ9WK2P"', candidates, { forms: 'plain', minLength: 4 })).toBe('bad value near "[redacted]"');
  });

  it('the Rocket.Chat rule', () => {
    const rocketChat: MaskingRule = {
      secretPathStart: (path) => {
        const at = path.search(/\/hooks\//i);
        return at < 0 ? -1 : at + '/hooks/'.length;
      },
      maskText: (text, marker) => text.replace(/\/hooks\/[^\s"<>`/]+\/[^\s"<>`]+/gi, `/hooks/${marker}`),
      isSecretHeader: (name) => name.toLowerCase() === 'x-user-id',
    };
    const masker = createSecretMasker({ marker: '***', urlFormat: 'compact', rules: [rocketChat] });
    expect(masker.url('https://bot:pw@chat.example.com/hooks/abc/tok?x=1')).toBe('https://***@chat.example.com/hooks/***');
  });
});
