import { describe, expect, it } from 'vitest';
import type { MaskingRule } from './masking-rule.js';
import { createSecretMasker } from './secret-masker.js';

/** Rocket.Chat's webhook shape, as chat-notifier plugs it in. */
const hooks: MaskingRule = {
  secretPathStart: (path) => {
    const at = path.search(/\/hooks\//i);
    return at < 0 ? -1 : at + '/hooks/'.length;
  },
  maskText: (text, marker) => text.replace(/\/hooks\/[^\s"<>`/]+\/[^\s"<>`]+/gi, `/hooks/${marker}`),
};

const compact = createSecretMasker({ marker: '***', urlFormat: 'compact', rules: [hooks] });
const marked = createSecretMasker({ marker: '[redacted]', minLength: 4 });
const mask = '[redacted]';

describe('URLs in free text', () => {
  it('are each masked, and a rule masks its shapes without a scheme', () => {
    expect(compact.text('see https://h/hooks/a/b and http://u:p@h:1 now')).toBe('see https://h/hooks/*** and http://***@h:1 now');
    expect(compact.text('POST chat.example.com/hooks/abc123/Zq9SecretTokenValue HTTP/1.1')).toBe('POST chat.example.com/hooks/*** HTTP/1.1');
    // A file path with one segment after hooks/ is not a webhook.
    expect(compact.text('see docs/hooks/README.md, line 3')).toBe('see docs/hooks/README.md, line 3');
  });

  it("run past a ' (encodeURIComponent leaves ' ( ) ! * raw, so a token or password may hold them)", () => {
    expect(compact.text("got \"http://h:1/hooks/id/'%20Zq(a)!*b\" there")).toBe('got "http://h:1/hooks/***" there');
    expect(compact.text("at 'https://h/login' and 'https://h/hooks/id/it's'")).toBe("at 'https://h/login' and 'https://h/hooks/***");
    expect(compact.text("proxy http://bob:s3cr'etpass@10.0.0.1:3128 refused")).toBe('proxy http://***@10.0.0.1:3128 refused');
    expect(compact.text("https://bot:p'ss@chat.example.com/hooks/id/tok")).toBe('https://***@chat.example.com/hooks/***');
    expect(compact.text("see https://h/x?token=ab'cdef123 now")).toBe('see https://h/x?*** now');
  });

  it('are found with their scheme glued to a word or a digit', () => {
    expect(compact.text('retry#2-https://deploy:hunter2hunter@proxy.example/x')).toBe('retry#2-https://***@proxy.example/x');
    expect(compact.text('(1.https://h/x?access_token=abcdef123456)')).toBe('(1.https://h/x?***');
    expect(compact.text('no scheme ://here, a.b.c://x@y and tail')).toBe('no scheme ://here, a.b.c://***@y and tail');
  });

  it('have their userinfo masked as one marker in every format (where it ends in free text is a guess)', () => {
    expect(marked.text('https://u:OriginPw99@app.example')).toBe(`https://${mask}@app.example`);
    expect(marked.text('see https://h.example/in?sig=abc#x')).toBe(`see https://h.example/in?sig=${mask}#${mask}`);
  });
});

describe('user:password@host without a scheme', () => {
  it('masks what comes before the last @ ahead of a host, with or without a scheme, and leaves other text', () => {
    expect(marked.text('user:HostPass77@10.0.0.1')).toBe(`${mask}@10.0.0.1`);
    expect(marked.text('https://u:p@ss@app.example/x')).toBe(`https://${mask}@app.example/x`);
    expect(marked.text('plain text')).toBe('plain text');
    expect(marked.text('trailing@')).toBe('trailing@');
  });

  it('anywhere in a text when the part before the @ holds a ":", and only at its start otherwise', () => {
    expect(compact.text('connecting to proxy bob:Zq9pw@10.0.0.1:3128 failed')).toBe('connecting to proxy ***@10.0.0.1:3128 failed');
    expect(compact.text('admin@example.com is the owner')).toBe('***@example.com is the owner');
    expect(compact.text('the owner is admin@example.com')).toBe('the owner is admin@example.com');
    // A package path in a stack trace is no credential.
    expect(compact.text('    at run (/app/node_modules/.pnpm/undici@7.1.0/node_modules/undici/index.js:1:2)')).toBe(
      '    at run (/app/node_modules/.pnpm/undici@7.1.0/node_modules/undici/index.js:1:2)',
    );
    expect(compact.text('@org/backoff: initial must be a finite number')).toBe('@org/backoff: initial must be a finite number');
  });
});
