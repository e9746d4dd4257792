import { describe, expect, it } from 'vitest';
import type { MaskingRule } from './masking-rule.js';
import { createSecretMasker } from './secret-masker.js';

/** Rocket.Chat's webhook shape, as chat-notifier plugs it in: everything after `/hooks/` is the id and the token. */
const hooks: MaskingRule = {
  secretPathStart: (path) => {
    const at = path.search(/\/hooks\//i);
    return at < 0 ? -1 : at + '/hooks/'.length;
  },
};

const marked = createSecretMasker({ marker: '[redacted]', minLength: 4 });
const compact = createSecretMasker({ marker: '***', urlFormat: 'compact', rules: [hooks] });
const bare = createSecretMasker({ urlFormat: 'bare' });
const mask = '[redacted]';

describe('url(), marked (the default: config print)', () => {
  it('keeps scheme, host, port and path, masks what may carry credentials, and masks a URL that does not parse whole', () => {
    expect(marked.url('redis://127.0.0.1:6379/0')).toBe('redis://127.0.0.1:6379/0');
    expect(marked.url('redis://:hunter2@10.0.0.5:6379/0')).toBe(`redis://:${mask}@10.0.0.5:6379/0`);
    expect(marked.url('rediss://default@h:6380')).toBe(`rediss://${mask}@h:6380`);
    expect(marked.url('redis//:hunter2@10.0.0.5')).toBe(mask);
    expect(marked.url('')).toBe('');
  });

  it('masks user name, password, each query value and the fragment in place, and the path of a webhook URL', () => {
    expect(marked.url('https://u:p4ss@h.example/in?sig=abc&x=1#frag', { secretPath: true })).toBe(`https://${mask}:${mask}@h.example/${mask}?sig=${mask}&x=${mask}#${mask}`);
    expect(marked.url('https://discord.com/api/webhooks/123/PathTokenSecret99', { secretPath: true })).toBe(`https://discord.com/${mask}`);
    expect(marked.url('https://h.example:8443/', { secretPath: true })).toBe('https://h.example:8443/');
    expect(marked.url('https://h.example/a%20b?a+b=1&&c%2Fd=2')).toBe(`https://h.example/a%20b?a%20b=${mask}&c%2Fd=${mask}`);
  });

  it('masks a query item without "=" whole: it is all value (a token given as the query)', () => {
    expect(marked.url('https://h.example/in?Zq9SecretToken')).toBe(`https://h.example/in?${mask}`);
    expect(marked.url('https://h.example/in?a=1&Zq9SecretToken')).toBe(`https://h.example/in?a=${mask}&${mask}`);
  });
});

describe('url(), compact (chat-notifier)', () => {
  it('keeps scheme, host and port; masks userinfo, the path a rule names and the query', () => {
    expect(compact.url('https://chat.example.com/hooks/abc/tok/en+=')).toBe('https://chat.example.com/hooks/***');
    expect(compact.url('https://bot:pw@chat.example.com:8443/hooks/abc/tok?x=1#f')).toBe('https://***@chat.example.com:8443/hooks/***');
    expect(compact.url('http://user:pw@127.0.0.1:3128')).toBe('http://***@127.0.0.1:3128');
    expect(compact.url('http://user:p/w@d@127.0.0.1:3128')).toBe('http://***@127.0.0.1:3128'); // malformed: "/" and "@" in the password
    expect(compact.url('https://example.com/login?token=abc')).toBe('https://example.com/login?***');
    expect(compact.url('not a url')).toBe('***');
  });

  it('masks a password holding ?, # or / (review round 2 of chat-notifier)', () => {
    expect(compact.url('http://user:Sup3rS3cret#x9@proxy.example:3128')).toBe('http://***@proxy.example:3128');
    expect(compact.url('http://user:Pa55w0rd?q1@proxy.example:3128')).toBe('http://***@proxy.example:3128');
  });
});

describe('url(), bare (webhook log names)', () => {
  it('leaves out userinfo, query and fragment', () => {
    expect(bare.url('https://user:pw@hooks.example.com:8443/in/abc?token=s3cret#x')).toBe('https://hooks.example.com:8443/in/abc');
    expect(bare.url('http://user:p/w@d@127.0.0.1:3128/x')).toBe('http://127.0.0.1:3128/x');
  });
});

describe('an @ that may or may not end the credentials', () => {
  it('shows no part but the scheme when a ? or # comes between two plausible hosts (a query value, or a host?)', () => {
    for (const masker of [marked, compact, bare]) {
      expect(masker.url('https://h.example/x?token=abc@Zq9SecretValue')).toBe(`https://${masker.marker}`);
      expect(masker.url('http://user:1234?q1@proxy.example:3128')).toBe(`http://${masker.marker}`);
      expect(masker.url('https://h.example/x#frag@Zq9SecretValue')).toBe(`https://${masker.marker}`);
      // The password's "/" makes "user:-" the only host without the first @, and it is no host:port.
      expect(masker.url('https://user:-/Zq1@host.example/path?name=Zq2#@Zq3SecretValue')).toBe(`https://${masker.marker}`);
      expect(masker.url('https://h.example\\x?token=a@Zq9SecretValue')).toBe(`https://${masker.marker}`);
    }
  });

  it('ends the credentials at the last @ followed by a host:port', () => {
    expect(compact.url('https://u:p@ss@app.example/x')).toBe('https://***@app.example/x');
    expect(compact.url('http://[::1]:6379/0')).toBe('http://[::1]:6379/0');
    expect(compact.url('http://u:p@[::1]:6379/0')).toBe('http://***@[::1]:6379/0');
    // An @ in a path (a Mastodon profile) reads as credentials: safe, if less readable.
    expect(compact.url('https://h.example/users/@alice/profile')).toBe('https://***@alice/profile');
  });

  it('masks up to the last @ after a /: the loose reading hides more than the parser there', () => {
    expect(compact.url('http://user:123/abc@host.example/x')).toBe('http://***@host.example/x');
    expect(marked.url('http://user:123/abc@host.example/x')).toBe(`http://${mask}:${mask}@host.example/x`);
  });
});
