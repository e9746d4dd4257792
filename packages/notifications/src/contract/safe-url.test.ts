import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isSafeUrl } from './safe-url.js';

// Pages the URL may end up on: a relative URL must stay http(s) against any of them.
const BASES = ['https://relative.invalid/', 'http://example.test/dir/page?q=1#top', 'https://a.test'];
// A URL that does not parse against a base (`https:` on an http page) is no link at all there.
const protocols = (url: string): string[] =>
  BASES.map((base) => {
    try {
      return new URL(url, base).protocol;
    } catch {
      return 'https:';
    }
  });

// Characters URL parsers strip or skip, and Unicode spaces that look like nothing.
const SNEAKY = ['\t', '\n', '\r', '\0', '\u0001', '\u001f', ' ', '\u007f', '\u0085', '\u00a0', '\u1680', '\u2000', '\u200b', '\u2028', '\u2029', '\u202f', '\u3000', '\ufeff'];

describe('isSafeUrl', () => {
  it.each([
    'https://example.test/a?b=c#d',
    'http://example.test',
    'HTTPS://EXAMPLE.TEST/',
    '/inbox/1',
    'inbox/1',
    '../up',
    '?page=2',
    '#item-3',
    '//cdn.example.test/x', // protocol-relative: the page's own http(s) scheme
    'javascript%3Aalert(1)', // a relative path, not a scheme
    '',
  ])('accepts %j', (url) => {
    expect(isSafeUrl(url)).toBe(true);
    expect(protocols(url).every((p) => p === 'http:' || p === 'https:')).toBe(true);
  });

  it.each([
    '\ud800',
    '/inbox/\udfff',
    'javascript:alert(1)',
    'JaVaScRiPt:alert(1)',
    'JAVASCRIPT:alert(1)',
    'javascript://example.test/%0aalert(1)',
    'data:text/html,<script>alert(1)</script>',
    'DATA:text/html;base64,PHNjcmlwdD4=',
    'vbscript:msgbox(1)',
    'VbScRiPt:msgbox(1)',
    'file:///etc/passwd',
    'ftp://example.test/',
    'mailto:a@example.test',
    'blob:https://example.test/uuid',
    'about:blank',
    ' javascript:alert(1)',
    'javascript:alert(1) ',
    '\njavascript:alert(1)',
    ' https://example.test/',
    'https://example.test/ ',
    'java\tscript:alert(1)',
    'java\nscript:alert(1)',
    'java\rscript:alert(1)',
    'javascript\t:alert(1)',
    '\0javascript:alert(1)',
    'java\0script:alert(1)',
    'https://example.test/\0',
    '\u00a0javascript:alert(1)',
    'javascript\u00a0:alert(1)',
    'https://exa\u00a0mple.test/',
    '\ufeffjavascript:alert(1)',
    '\u200bjavascript:alert(1)',
    'http://[::1', // unparsable
  ])('refuses %j', (url) => {
    expect(isSafeUrl(url)).toBe(false);
  });

  it('refuses non-strings, so a client can check data of unknown shape', () => {
    for (const value of [null, undefined, 1, {}, [], { toString: () => 'https://x' }, new URL('https://example.test/')]) expect(isSafeUrl(value)).toBe(false);
  });

  it.each(['\u0080', '\u0085', '\u009b', '\u009f'])('refuses the C1 control %j anywhere in a URL', (c1) => {
    for (const url of [`${c1}https://example.test/`, `https://exa${c1}mple.test/`, `/inbox/${c1}`, `java${c1}script:alert(1)`]) expect(isSafeUrl(url)).toBe(false);
  });

  it('accepts nothing that resolves to another protocol, or that holds a control or space character', () => {
    const urlish = fc.oneof(
      fc.string({ unit: 'binary', maxLength: 40 }),
      fc.webUrl({ withQueryParameters: true, withFragments: true }),
      fc.tuple(fc.constantFrom('javascript', 'data', 'vbscript', 'http', 'https', 'file', 'jAvAsCrIpT', ''), fc.constantFrom(':', '://', '%3a', '&colon;', ''), fc.string({ maxLength: 20 })).map(([s, sep, rest]) => s + sep + rest),
    );
    const mangled = fc.tuple(urlish, fc.array(fc.tuple(fc.nat(), fc.constantFrom(...SNEAKY)), { maxLength: 3 })).map(([url, inserts]) =>
      inserts.reduce((u, [at, ch]) => u.slice(0, at % (u.length + 1)) + ch + u.slice(at % (u.length + 1)), url),
    );
    fc.assert(
      fc.property(fc.oneof(urlish, mangled), (url) => {
        if (!isSafeUrl(url)) return;
        expect(protocols(url).every((p) => p === 'http:' || p === 'https:')).toBe(true);
        expect(SNEAKY.some((ch) => url.includes(ch))).toBe(false);
      }),
      { numRuns: 200 },
    );
  });

  it('refuses every casing of a dangerous scheme, with any control or space character slipped in', () => {
    const scheme = fc
      .tuple(fc.constantFrom('javascript', 'data', 'vbscript'), fc.array(fc.boolean(), { minLength: 10, maxLength: 10 }))
      .map(([s, upper]) => [...s].map((ch, i) => (upper[i] ? ch.toUpperCase() : ch)).join(''));
    const sneak = fc.array(fc.tuple(fc.nat(), fc.constantFrom(...SNEAKY)), { maxLength: 3 });
    fc.assert(
      fc.property(scheme, sneak, fc.string({ maxLength: 10 }), (s, inserts, rest) => {
        let url = `${s}:${rest}`;
        for (const [at, ch] of inserts) url = url.slice(0, at % (s.length + 1)) + ch + url.slice(at % (s.length + 1));
        expect(isSafeUrl(url)).toBe(false);
      }),
      { numRuns: 300 },
    );
  });
});
