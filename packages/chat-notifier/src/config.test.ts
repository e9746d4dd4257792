import { describe, expect, it } from 'vitest';
import { resolveChatConfig, webhookEnvName } from './config.js';
import { InvalidChatConfig } from './errors.js';

const WEBHOOK = 'https://chat.example.com/hooks/abc/s3cr3t-token';

function messageOf(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(InvalidChatConfig);
    return (error as Error).message;
  }
  throw new Error('expected an InvalidChatConfig');
}

describe('resolveChatConfig', () => {
  it('fills in the documented defaults', () => {
    const config = resolveChatConfig('chat', { webhook: WEBHOOK }, {});
    expect(config).toMatchObject({
      webhook: WEBHOOK,
      timeout: 30,
      connect_timeout: 10,
      verify: true,
      http_errors: true,
      headers: {},
      override_channel: true,
      max_payload_bytes: 1048576,
      retry: { retries: 3, min_delay: 0.5, max_delay: 30, factor: 2, max_elapsed: 60, statuses: [429, 502, 503, 504], on_timeout: false, on_connection_error: true, jitter: true },
    });
    expect(config.proxy).toBeUndefined();
  });

  it('reads a missing webhook from the environment variable named after the instance', () => {
    expect(webhookEnvName('chat-alerts')).toBe('CHAT_ALERTS_WEBHOOK');
    expect(resolveChatConfig('chat-alerts', {}, { CHAT_ALERTS_WEBHOOK: WEBHOOK }).webhook).toBe(WEBHOOK);
    expect(resolveChatConfig('chat', { webhook: WEBHOOK }, { CHAT_WEBHOOK: 'https://other/hooks/a/b' }).webhook).toBe(WEBHOOK);
  });

  it('says where to put the webhook when it is missing', () => {
    expect(messageOf(() => resolveChatConfig('chat-ops', undefined, {}))).toBe(
      'Invalid config for chat instance "chat-ops": webhook is required (set it in the config or in the CHAT_OPS_WEBHOOK environment variable)',
    );
  });

  it('rejects a webhook without /hooks/<id>/<token> and never echoes the value', () => {
    const message = messageOf(() => resolveChatConfig('chat', { webhook: 'https://chat.example.com/api/s3cr3t-token' }, {}));
    expect(message).toMatch(/webhook: expected a URL like "https:\/\/chat.example.com\/hooks\/<id>\/<token>"/);
    expect(message).not.toContain('s3cr3t-token');
  });

  it('names the key of a problem found inside a union branch (an empty verify path)', () => {
    expect(messageOf(() => resolveChatConfig('chat', { webhook: WEBHOOK, verify: '' }, {}))).toMatch(/: verify: expected true, false, or the path of a PEM CA bundle/);
  });

  it('names the key and the expected value, and catches milliseconds passed as seconds', () => {
    expect(messageOf(() => resolveChatConfig('chat', { webhook: WEBHOOK, timeout: 30000 }, {}))).toBe(
      'Invalid config for chat instance "chat": timeout: expected a number of seconds ≤ 600 (seconds, not milliseconds) (got number 30000)',
    );
    expect(messageOf(() => resolveChatConfig('chat', { webhook: WEBHOOK, connect_timeout: -1 }, {}))).toMatch(/connect_timeout: expected a number of seconds/);
    expect(messageOf(() => resolveChatConfig('chat', { webhook: WEBHOOK, verify: 'yes please' as never, http_errors: 'no' as never }, {}))).toMatch(
      /http_errors: expected true or false \(got "no"\)/,
    );
    expect(messageOf(() => resolveChatConfig('chat', { webhook: WEBHOOK, proxy: 'socks://x' }, {}))).toMatch(/proxy: expected an http\(s\) proxy URL/);
    expect(messageOf(() => resolveChatConfig('chat', { webhook: WEBHOOK, retry: { retries: 50 } }, {}))).toMatch(/retry.retries: expected an integer from 0 to 10 \(got number 50\)/);
  });

  it('rejects unknown options and reserved headers', () => {
    expect(messageOf(() => resolveChatConfig('chat', { webhook: WEBHOOK, timout: 3 } as never, {}))).toMatch(/unknown option\(s\) "timout"/);
    expect(messageOf(() => resolveChatConfig('chat', { webhook: WEBHOOK, headers: { 'Content-Type': 'text/plain' } }, {}))).toMatch(
      /headers: "Content-Type" is set by the notifier/,
    );
    expect(messageOf(() => resolveChatConfig('chat', { webhook: WEBHOOK, headers: { 'bad header': 'x' } }, {}))).toMatch(/not a valid header name/);
    expect(messageOf(() => resolveChatConfig('chat', { webhook: WEBHOOK, headers: { 'x-a': 'v\r\nx-injected: 1' } }, {}))).toMatch(/headers: "x-a" must not contain line breaks/);
  });

  it('accepts retry: false and a partial retry policy merged over the defaults', () => {
    expect(resolveChatConfig('chat', { webhook: WEBHOOK, retry: false }, {}).retry).toBe(false);
    expect(resolveChatConfig('chat', { webhook: WEBHOOK, retry: { retries: 1, statuses: [500] } }, {}).retry).toMatchObject({ retries: 1, statuses: [500], min_delay: 0.5 });
  });

  it('never shows part of a proxy password, whatever it holds (?, #, a space or a quote in a long one)', () => {
    const long = `S3cretPassw0rd-${'Q'.repeat(70)}-END`;
    for (const proxy of ['http://user:Sup3rS3cret#x9@proxy.example:3128', 'http://user:Pa55w0rd?q1@proxy.example:3128', `http://user:${long} x%zz@proxy.example:3128`, `http://user:${long}"x%zz@proxy.example:3128`]) {
      const message = messageOf(() => resolveChatConfig('chat', { webhook: WEBHOOK, proxy }, {}));
      expect(message).toMatch(/^Invalid config for chat instance "chat": proxy: /);
      for (const part of ['Sup3rS3cret', 'Pa55w0rd', 'S3cretPassw0rd', 'QQQQQQ']) expect(message, proxy).not.toContain(part);
    }
  });

  it('rejects a config that is not an object', () => {
    expect(messageOf(() => resolveChatConfig('chat', 42, {}))).toBe('Invalid config for chat instance "chat": expected an object, got number 42');
    // A string is most likely the webhook itself: never echoed (a token or password may hold a quote or a space,
    // which the secrets property and the review found echoed past the mask).
    for (const url of ["https://x/hooks/a/'%20ZqAA0aa00aaA", "https://bot:p'ssw0rd@chat.example.com/hooks/Zq9Id/Secr3tTok3n", 'chat.example.com/hooks/abc/Zq9Secret Tok3n']) {
      expect(messageOf(() => resolveChatConfig('chat', url, {}))).toBe(
        'Invalid config for chat instance "chat": expected an object, got a string (to give only the webhook, pass { webhook: "<url>" })',
      );
    }
  });
});

describe('values undici would drop or refuse are refused here, naming the key but not the secret', () => {
  it('webhook with user:password@ (undici sends no credentials): refused, credentials not echoed, headers suggested', () => {
    const message = messageOf(() => resolveChatConfig('chat', { webhook: 'https://bot:hunter22pass@chat.example.com/hooks/abc/s3cr3t-token' }, {}));
    expect(message).toMatch(/^Invalid config for chat instance "chat": webhook: must not contain "user:password@"/);
    expect(message).toContain('headers');
    expect(message).not.toContain('hunter22pass');
    expect(message).not.toContain('s3cr3t-token');
  });

  it('proxy credentials that undici cannot percent-decode, or only half there, or a proxy with a path: refused, never echoed', () => {
    const cases: Array<[string, RegExp]> = [
      ['http://user:100%pure@127.0.0.1:3128', /proxy: the credentials hold a "%" that is not a percent-escape/],
      ['http://us%zzer:pa55word-x@127.0.0.1:3128', /proxy: the credentials hold a "%"/],
      ['http://pa55word-x@127.0.0.1:3128', /proxy: credentials need both a user and a password/],
      ['http://user:@127.0.0.1:3128', /proxy: credentials need both a user and a password/],
      ['http://user:pa55word-x@127.0.0.1:3128/path', /proxy: expected only scheme, credentials, host and port/],
      ['http://user:pa55word-x@127.0.0.1:3128/?q=1', /proxy: expected only scheme, credentials, host and port/],
    ];
    for (const [proxy, expected] of cases) {
      const message = messageOf(() => resolveChatConfig('chat', { webhook: WEBHOOK, proxy }, {}));
      expect(message, proxy).toMatch(expected);
      expect(message, proxy).not.toContain('pa55word-x');
      expect(message, proxy).not.toContain('100%pure');
    }
    // What undici can use passes: escapes that decode, a trailing slash.
    expect(resolveChatConfig('chat', { webhook: WEBHOOK, proxy: 'http://user:100%25pure@127.0.0.1:3128/' }, {}).proxy).toBe('http://user:100%25pure@127.0.0.1:3128/');
  });

  it('header values undici refuses (controls, DEL, characters above \\xFF) and names that are not tokens: refused, value not echoed', () => {
    for (const value of ['abc\x01def-s3cr3t', 'naïve € s3cr3t', 'x\x7fs3cr3t', 'tab\u0100s3cr3t']) {
      const message = messageOf(() => resolveChatConfig('chat', { webhook: WEBHOOK, headers: { 'x-tenant': value } }, {}));
      expect(message, JSON.stringify(value)).toMatch(/headers: "x-tenant" has a character not allowed in a header value/);
      expect(message).not.toContain('s3cr3t');
    }
    for (const name of ['x tenant', 'x:y', 'ü', '']) {
      expect(messageOf(() => resolveChatConfig('chat', { webhook: WEBHOOK, headers: { [name]: 'v' } }, {}))).toMatch(/is not a valid header name/);
    }
    for (const name of ['keep-alive', 'Upgrade', 'expect']) {
      expect(messageOf(() => resolveChatConfig('chat', { webhook: WEBHOOK, headers: { [name]: 'v' } }, {}))).toMatch(/is set by the notifier and cannot be overridden/);
    }
    // HTAB, SP, visible ASCII and obs-text (\x80–\xFF) are what undici sends.
    expect(resolveChatConfig('chat', { webhook: WEBHOOK, headers: { 'x-tenant': 'tab\there naïve ~!' } }, {}).headers['x-tenant']).toBe('tab\there naïve ~!');
  });
});
