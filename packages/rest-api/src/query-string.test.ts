import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { maxQueryParameters, parseQueryString, splitUrl } from './query-string.js';

describe('parseQueryString', () => {
  it('decodes percent-encoded values the way pusher-http-php sends them', () => {
    const query = parseQueryString('info=user_count%2Csubscription_count&filter_by_prefix=presence-&auth_key=k');
    expect(Object.fromEntries(query)).toEqual({ info: 'user_count,subscription_count', filter_by_prefix: 'presence-', auth_key: 'k' });
  });

  it('keeps raw values of the Node SDK as they are, including "+"', () => {
    expect(parseQueryString('info=user_count,subscription_count&x=a+b').get('x')).toBe('a+b');
    expect(parseQueryString('info=user_count,subscription_count').get('info')).toBe('user_count,subscription_count');
  });

  it('treats a key without "=" as an empty value and skips empty pairs', () => {
    expect(Object.fromEntries(parseQueryString('a&&b=1&'))).toEqual({ a: '', b: '1' });
    expect(parseQueryString('').size).toBe(0);
  });

  it('refuses invalid percent-encoding and too many parameters', () => {
    expect(() => parseQueryString('a=%zz')).toThrowError(/invalid percent-encoding/);
    const many = Array.from({ length: maxQueryParameters + 1 }, (_, i) => `k${i}=v`).join('&');
    expect(() => parseQueryString(many)).toThrowError(`the query string has more than ${maxQueryParameters} parameters`);
  });
});

/** The split-based parse it replaced, as the reference: pairs of `raw.split('&')`, each split at its first `=`. */
function referenceParse(raw: string): Map<string, string> | string {
  const query = new Map<string, string>();
  if (raw === '') return query;
  const pairs = raw.split('&');
  if (pairs.length > maxQueryParameters) return 'too many';
  try {
    for (const pair of pairs) {
      if (pair === '') continue;
      const equals = pair.indexOf('=');
      const decode = (part: string) => (part.includes('%') ? decodeURIComponent(part) : part);
      query.set(decode(equals === -1 ? pair : pair.slice(0, equals)), equals === -1 ? '' : decode(pair.slice(equals + 1)));
    }
  } catch {
    return 'bad encoding';
  }
  return query;
}

describe('parseQueryString against the split-based reference', () => {
  it('gives the same map, or refuses the same way, for any query string', () => {
    const part = fc.oneof(fc.constantFrom('&', '=', '%', '%2C', '%zz', '%E2%82', 'a', 'auth_key', '+', ''), fc.string({ maxLength: 4 }));
    const raw = fc.oneof(fc.array(part, { maxLength: 80 }).map((parts) => parts.join('')), fc.tuple(fc.integer({ min: 30, max: 34 }), fc.constantFrom('', '%zz', 'a=%E2')).map(([n, first]) => `${first}&${'k=v&'.repeat(n)}`));
    fc.assert(
      fc.property(raw, (query) => {
        let actual: Map<string, string> | string;
        try {
          actual = parseQueryString(query);
        } catch (error) {
          actual = (error as Error).message.includes('parameters') ? 'too many' : 'bad encoding';
        }
        expect(actual).toEqual(referenceParse(query));
      }),
      { numRuns: 5_000 },
    );
  });
});

describe('splitUrl', () => {
  it('splits the raw path and query without decoding', () => {
    expect(splitUrl('http://h:1/realtime/apps/1/channels/a%40b?info=x%2Cy#frag')).toEqual({
      path: '/realtime/apps/1/channels/a%40b',
      query: 'info=x%2Cy',
    });
    expect(splitUrl('http://h/up')).toEqual({ path: '/up', query: '' });
    expect(splitUrl('http://h')).toEqual({ path: '/', query: '' });
  });
});
