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
