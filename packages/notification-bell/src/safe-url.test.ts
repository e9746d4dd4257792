import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isSafeUrl, safeUrlOrNull } from './safe-url.js';

describe('isSafeUrl', () => {
  it.each(['https://example.com/a?b=c#d', 'http://example.com', '/inbox/1', 'inbox/1', '?tab=unread', '#top', '//cdn.example.com/x', 'HTTPS://EXAMPLE.COM'])(
    'accepts %j',
    (url) => expect(isSafeUrl(url)).toBe(true),
  );

  it.each([
    'javascript:alert(1)',
    'JaVaScRiPt:alert(1)',
    ' javascript:alert(1)',
    '\tjavascript:alert(1)',
    'java\tscript:alert(1)',
    'java\nscript:alert(1)',
    '\u0000javascript:alert(1)',
    'javascript\u0000:alert(1)',
    '\u00a0javascript:alert(1)',
    'data:text/html,<script>alert(1)</script>',
    'DATA:text/html;base64,PHNjcmlwdD4=',
    'vbscript:msgbox(1)',
    'file:///etc/passwd',
    'blob:https://example.com/uuid',
    'ftp://example.com',
    'https://example.com/ space',
    '',
  ])('refuses %j', (url) => expect(isSafeUrl(url)).toBe(false));

  it.each(['\u0080', '\u0085', '\u009b', '\u009f'])('refuses the C1 control %j anywhere in a URL (the contract rule, as the API applies it)', (c1) => {
    for (const url of [`${c1}https://example.com/`, `https://exa${c1}mple.com/`, `/inbox/${c1}`, `java${c1}script:alert(1)`]) expect(isSafeUrl(url)).toBe(false);
  });

  it.each(['\ud800', '\udbff', '\udc00', '\udfff'])('refuses the unpaired surrogate %j, before or after text', (half) => {
    for (const url of [half, `/inbox/${half}`, `https://example.com/${half}x`, `${half}/inbox`]) expect(isSafeUrl(url)).toBe(false);
  });

  it('accepts a well-formed surrogate pair (an emoji in a path)', () => {
    expect(isSafeUrl('/inbox/\ud83d\udd14')).toBe(true);
    // The same halves the wrong way round are two unpaired surrogates.
    expect(isSafeUrl('/inbox/\udd14\ud83d')).toBe(false);
  });

  it('refuses non-strings', () => {
    for (const value of [null, undefined, 1, {}, [], { toString: () => 'https://x' }]) expect(isSafeUrl(value)).toBe(false);
  });

  it('never accepts a URL the browser would resolve to a scheme other than http(s)', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.string({ unit: 'binary' }), fc.webUrl(), fc.constantFrom('javascript:', 'data:', 'vbscript:', ' javascript:').chain((p) => fc.string().map((s) => p + s))), (value) => {
        const safe = safeUrlOrNull(value);
        if (safe === null) return;
        const protocol = new URL(safe, 'https://host.test/').protocol;
        expect(['http:', 'https:']).toContain(protocol);
      }),
      { numRuns: 2000 },
    );
  });
});
