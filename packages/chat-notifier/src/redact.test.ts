import { inspect } from 'node:util';
import { describe, expect, it } from 'vitest';
import { maskUrl, maskUrlsIn, Redactor, sanitizeError } from './redact.js';

describe('the masking rule', () => {
  it('keeps scheme, host and port; masks userinfo, the /hooks/ path and the query', () => {
    expect(maskUrl('https://chat.example.com/hooks/abc/tok/en+=')).toBe('https://chat.example.com/hooks/***');
    expect(maskUrl('https://bot:pw@chat.example.com:8443/hooks/abc/tok?x=1#f')).toBe('https://***@chat.example.com:8443/hooks/***');
    expect(maskUrl('http://user:pw@127.0.0.1:3128')).toBe('http://***@127.0.0.1:3128');
    expect(maskUrl('http://user:p/w@d@127.0.0.1:3128')).toBe('http://***@127.0.0.1:3128'); // malformed: "/" and "@" in the password
    expect(maskUrl('https://example.com/login?token=abc')).toBe('https://example.com/login?***');
    expect(maskUrl('not a url')).toBe('***');
    expect(maskUrlsIn('see https://h/hooks/a/b and http://u:p@h:1 now')).toBe('see https://h/hooks/*** and http://***@h:1 now');
  });

  it("masks a /hooks/ token holding the characters encodeURIComponent leaves raw (' ( ) ! *) to its end in free text", () => {
    expect(maskUrlsIn("got \"http://h:1/hooks/id/'%20Zq(a)!*b\" there")).toBe('got "http://h:1/hooks/***" there');
    expect(maskUrlsIn("at 'https://h/login' and 'https://h/hooks/id/it's'")).toBe("at 'https://h/login' and 'https://h/hooks/***");
  });

  it("masks userinfo and queries holding a ', and /hooks/ paths without a scheme", () => {
    expect(maskUrlsIn("proxy http://bob:s3cr'etpass@10.0.0.1:3128 refused")).toBe('proxy http://***@10.0.0.1:3128 refused');
    expect(maskUrlsIn("https://bot:p'ss@chat.example.com/hooks/id/tok")).toBe('https://***@chat.example.com/hooks/***');
    expect(maskUrlsIn("see https://h/x?token=ab'cdef123 now")).toBe('see https://h/x?*** now');
    expect(maskUrlsIn('POST chat.example.com/hooks/abc123/Zq9SecretTokenValue HTTP/1.1')).toBe('POST chat.example.com/hooks/*** HTTP/1.1');
  });

  it('masks a password holding ?, # or / and finds URLs whose scheme is glued to a word or a digit (review round 2)', () => {
    expect(maskUrl('http://user:Sup3rS3cret#x9@proxy.example:3128')).toBe('http://***@proxy.example:3128');
    expect(maskUrl('http://user:Pa55w0rd?q1@proxy.example:3128')).toBe('http://***@proxy.example:3128');
    expect(maskUrlsIn('retry#2-https://deploy:hunter2hunter@proxy.example/x')).toBe('retry#2-https://***@proxy.example/x');
    expect(maskUrlsIn('(1.https://h/x?access_token=abcdef123456)')).toBe('(1.https://h/x?***');
    expect(maskUrlsIn('no scheme ://here, a.b.c://x@y and tail')).toBe('no scheme ://here, a.b.c://***@y and tail');
    // A file path with one segment after hooks/ is not a webhook.
    expect(maskUrlsIn('see docs/hooks/README.md, line 3')).toBe('see docs/hooks/README.md, line 3');
  });

  it('finds a secret base64-encoded inside a longer base64 text, at every alignment', () => {
    for (const host of ['chat.example.com', 'chat.example.co', 'chat.example.c']) {
      const webhook = `https://${host}/hooks/AbCdEfGhIjKlMnOpQ/T0kenT0kenT0kenT0ken`;
      const redactor = Redactor.forWebhook(webhook);
      for (const echo of [webhook, 'POST /hooks/AbCdEfGhIjKlMnOpQ/T0kenT0kenT0kenT0ken HTTP/1.1', `{"url":"${webhook}"}`]) {
        const masked = redactor.text(`request id ${Buffer.from(echo).toString('base64')}`);
        const recovered = masked.split(/\*\*\*|\s/).map((part) => Buffer.from(part, 'base64').toString('latin1')).join('');
        expect(recovered, `${host}: ${echo}`).not.toContain('T0kenT0ken');
      }
    }
  });

  it('replaces every form of the secret in echoed text, and credential headers', () => {
    const token = 'tok3n/Secr+et=x%2Fy';
    const redactor = Redactor.forWebhook(`https://h/hooks/id/${token}`);
    const decoded = decodeURIComponent(token);
    for (const form of [token, decoded, encodeURIComponent(decoded), Buffer.from(decoded).toString('base64'), JSON.stringify(decoded).slice(1, -1)]) {
      expect(redactor.text(`before ${form} after`)).toBe('before *** after');
    }
    expect(redactor.headers({ 'set-cookie': 'a=b', location: `https://h/hooks/id/${token}`, 'x-api-key': 'k', 'x-echo': `t=${token}` })).toEqual({
      'set-cookie': '[redacted]',
      location: 'https://h/hooks/***',
      'x-api-key': '[redacted]',
      'x-echo': 't=***',
    });
  });

  it('masks 256 KiB of hostile /hooks/ text in linear time (the Rocket.Chat rule plugged into @org/secret-masking)', () => {
    const redactor = Redactor.forWebhook('https://h/hooks/id/very-secret-token');
    for (const unit of ['/hooks/a', '/hooks/a ', '/hooks//', 'https://h/hooks/', 'a.a.']) {
      const text = unit.repeat(Math.ceil((256 * 1024) / unit.length));
      const started = performance.now();
      expect(typeof redactor.text(text)).toBe('string');
      expect(typeof maskUrlsIn(text)).toBe('string');
      expect(performance.now() - started, unit).toBeLessThan(3_000);
    }
  });

  it('sanitizeError copies the cause chain with messages and stacks scrubbed, and nothing else', () => {
    const redactor = Redactor.forWebhook('https://h/hooks/id/very-secret-token');
    const inner = Object.assign(new Error('reset while posting very-secret-token'), { code: 'ECONNRESET', socket: { secret: 'very-secret-token' } });
    const outer = new Error('failed https://h/hooks/id/very-secret-token', { cause: new AggregateError([inner], 'all failed') });
    const copy = sanitizeError(outer, redactor);
    const printed = inspect(copy, { depth: Infinity, showHidden: true });
    expect(printed).not.toContain('very-secret-token');
    expect(printed).toContain('ECONNRESET');
    expect(printed).toContain('https://h/hooks/***');
  });
});
