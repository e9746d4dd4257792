import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { originAllowed } from './origin.js';

const allowedBy = (entry: string, origin: string | undefined) => originAllowed(Object.freeze([entry]), origin);

describe('originAllowed: host names', () => {
  it('matches a bare host name on any scheme and any port', () => {
    for (const origin of ['http://example.net', 'https://example.net', 'http://example.net:3000', 'https://example.net:8443', 'http://EXAMPLE.net.']) {
      expect(allowedBy('example.net', origin), origin).toBe(true);
    }
  });

  it('refuses other hosts, parents and look-alikes of a bare host name', () => {
    for (const origin of ['http://a.example.net', 'http://example.org', 'http://notexample.net', 'http://example.net.evil.com', 'http://evil.com/?example.net']) {
      expect(allowedBy('example.net', origin), origin).toBe(false);
    }
  });

  it('matches a host with a port only on that port (the effective port counts)', () => {
    expect(allowedBy('example.net:3000', 'http://example.net:3000')).toBe(true);
    expect(allowedBy('example.net:3000', 'http://example.net:3001')).toBe(false);
    expect(allowedBy('example.net:3000', 'http://example.net')).toBe(false);
    expect(allowedBy('example.net:443', 'https://example.net')).toBe(true);
    expect(allowedBy('example.net:80', 'https://example.net')).toBe(false);
  });

  it('matches a wildcard on subdomains at any depth and any port, not on the parent itself', () => {
    expect(allowedBy('*.example.net', 'https://a.example.net')).toBe(true);
    expect(allowedBy('*.example.net', 'http://a.b.example.net:3000')).toBe(true);
    expect(allowedBy('*.example.net', 'https://example.net')).toBe(false);
    expect(allowedBy('*.example.net', 'https://aexample.net')).toBe(false);
    expect(allowedBy('*.example.net', 'https://a.example.net.evil.com')).toBe(false);
  });

  it('matches a wildcard with a port only on that port', () => {
    expect(allowedBy('*.example.net:3000', 'http://a.example.net:3000')).toBe(true);
    expect(allowedBy('*.example.net:3000', 'http://a.example.net')).toBe(false);
  });

  it('matches IPv6, IDN and upper-case entries in their canonical form', () => {
    expect(allowedBy('[::1]', 'http://[::1]:5173')).toBe(true);
    expect(allowedBy('[0:0::1]:5173', 'http://[::1]:5173')).toBe(true);
    expect(allowedBy('bücher.example', 'https://xn--bcher-kva.example')).toBe(true);
    expect(allowedBy('App.Example.NET', 'https://app.example.net:3000')).toBe(true);
    expect(allowedBy('localhost', 'http://localhost:5173')).toBe(true);
  });
});

describe('originAllowed: full origins', () => {
  it('matches scheme and host on any port when the entry names no port', () => {
    expect(allowedBy('https://example.net', 'https://example.net')).toBe(true);
    expect(allowedBy('https://example.net', 'https://example.net:8443')).toBe(true);
    expect(allowedBy('https://example.net/', 'https://example.net')).toBe(true);
    expect(allowedBy('https://example.net', 'http://example.net')).toBe(false);
    expect(allowedBy('HTTPS://example.net', 'https://example.net')).toBe(true);
  });

  it('matches only the named port when the entry names one', () => {
    expect(allowedBy('https://example.net:8443', 'https://example.net:8443')).toBe(true);
    expect(allowedBy('https://example.net:8443', 'https://example.net')).toBe(false);
    expect(allowedBy('http://localhost:3000', 'http://localhost:3000')).toBe(true);
    expect(allowedBy('http://localhost:3000', 'http://localhost:5173')).toBe(false);
  });

  it('matches scheme-qualified wildcards', () => {
    expect(allowedBy('https://*.example.net', 'https://a.example.net:9000')).toBe(true);
    expect(allowedBy('https://*.example.net', 'http://a.example.net')).toBe(false);
  });

  it('matches app schemes such as capacitor://', () => {
    expect(allowedBy('capacitor://localhost', 'capacitor://localhost')).toBe(true);
    expect(allowedBy('localhost', 'capacitor://localhost')).toBe(true);
  });
});

describe('originAllowed: the list', () => {
  it('allows everything, even a missing Origin, when * is listed', () => {
    expect(originAllowed(['example.net', '*'], undefined)).toBe(true);
    expect(originAllowed(['*'], 'not an origin')).toBe(true);
  });

  it('refuses a missing or empty Origin when the list is restricted', () => {
    expect(originAllowed(['example.net'], undefined)).toBe(false);
    expect(originAllowed(['example.net'], '')).toBe(false);
  });

  it('allows an entry equal to the whole Origin, such as null from a sandboxed page', () => {
    expect(originAllowed(['null'], 'null')).toBe(true);
    expect(originAllowed(['example.net'], 'null')).toBe(false);
  });

  it('matches nothing with malformed entries or origins', () => {
    for (const entry of ['', 'exa*mple.net', '*example.net', 'example.net:99999', 'example.net:', 'user@example.net', 'https://', '*.', 'example.net/path']) {
      expect(allowedBy(entry, 'https://example.net'), entry).toBe(false);
    }
    for (const origin of ['www.example.net', 'https://', '://example.net', 'https://example.net:abc', 'file:///etc/passwd', '\u0000']) {
      expect(allowedBy('example.net', origin), origin).toBe(false);
    }
  });

  it('reads a mutable list afresh on every call', () => {
    const list = ['example.org'];
    expect(originAllowed(list, 'https://example.net')).toBe(false);
    list[0] = 'example.net';
    expect(originAllowed(list, 'https://example.net')).toBe(true);
  });
});

describe('originAllowed: hostile input', () => {
  const hostish = fc.oneof(
    fc.string(),
    fc.string({ unit: 'grapheme' }),
    fc.webUrl().map((url) => url.replace(/\/[^/]*$/, '')),
    fc.domain(),
    fc.constantFrom('*', '*.', 'null', '[::1]', 'http://[', 'https://*.', ':80', '*.*.a', '\u0000', 'a b', 'ä.example'),
  );

  it('never throws and answers a boolean for arbitrary origins and entries', () => {
    fc.assert(
      fc.property(fc.array(hostish, { maxLength: 5 }), fc.option(hostish, { nil: undefined }), fc.boolean(), (entries, origin, frozen) => {
        const list = frozen ? Object.freeze([...entries]) : entries;
        expect(typeof originAllowed(list, origin)).toBe('boolean');
        // The cache gives the same answer a second time.
        expect(originAllowed(list, origin)).toBe(originAllowed([...entries], origin));
      }),
      { numRuns: 2_000 },
    );
  });

  it('allows a web origin through its own host name, and refuses it through any other domain', () => {
    fc.assert(
      fc.property(fc.webUrl({ withQueryParameters: false, withFragments: false }), fc.domain(), (url, other) => {
        const { origin, hostname } = new URL(url);
        expect(originAllowed([hostname], origin)).toBe(true);
        if (other.toLowerCase() !== hostname) expect(originAllowed([other], origin)).toBe(false);
      }),
      { numRuns: 1_000 },
    );
  });
});
