import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { headerSecrets, urlCredentials } from './known-secrets.js';
import { createSecretMasker } from './secret-masker.js';

/*
 * realtime-server's `config print` property at the masker's level: whatever
 * characters the secrets hold, a configuration masked by value() shows none
 * of them, in no key and no value, in their own form or encoded. The
 * end-to-end property (files and environment, YAML and JSON output) stays in
 * realtime-server; this one runs the rule alone, more times.
 */

/** Secrets as operators have them, from a wide alphabet (YAML and JSON syntax included); no two alike. */
const secret = fc.string({ minLength: 6, maxLength: 24, unit: fc.constantFrom(...'abcXYZ0189-_.~:#&*!{}[],|>%@`"\'\\ /=+?é€😀') }).map((text) => `Sx${text}Q9`);
const urlSafeSecret = fc.string({ minLength: 6, maxLength: 20, unit: fc.constantFrom(...'abcdefXYZ0123456789-_.~') }).map((text) => `Ux${text}Q9`);

function stringsIn(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  if (Array.isArray(value)) return value.flatMap(stringsIn);
  if (typeof value === 'object' && value !== null) return Object.entries(value).flatMap(([key, item]) => [key, ...stringsIn(item)]);
  return [];
}

describe('value() never shows a known secret, wherever it sits', () => {
  it('holds for secrets of any characters, in secret keys, headers, URLs, hosts, origins and free text', () => {
    const secrets = fc.record({
      appSecret: secret,
      redisPassword: secret,
      passphrase: secret,
      header: secret,
      otherHeader: secret,
      urlPassword: urlSafeSecret,
      urlUser: urlSafeSecret,
      urlQuery: urlSafeSecret,
      redisUrlPassword: urlSafeSecret,
      webhookPathToken: urlSafeSecret,
      hostPassword: urlSafeSecret,
      originPassword: urlSafeSecret,
    });
    fc.assert(
      fc.property(secrets, (s) => {
        const all = Object.values(s);
        fc.pre(new Set(all).size === all.length);
        const webhookUrl = `https://${s.urlUser}:${s.urlPassword}@hooks.example/in?token=${s.urlQuery}`;
        const redisUrl = `redis://default:${s.redisUrlPassword}@127.0.0.1:6379/0`;
        const headers = { Authorization: `Bearer ${s.header}`, 'X-Other': s.otherHeader };
        const config = {
          servers: { main: { port: 6001, options: { tls: { cert: '/c.pem', key: '/k.pem', passphrase: s.passphrase } } } },
          applications: [
            {
              id: '1',
              key: 'app-key',
              secret: s.appSecret,
              // The app secret again in other forms: percent-encoded in a URL, base64 in a Basic credential.
              name: `https://h.example/in/${encodeURIComponent(s.appSecret)} Basic ${Buffer.from(`user:${s.appSecret}`).toString('base64')}`,
              allowed_origins: [`https://u:${s.originPassword}@app.example`],
              webhooks: [{ url: webhookUrl, headers }, { url: `https://discord.example/api/webhooks/123/${s.webhookPathToken}` }],
            },
          ],
          redis: { password: s.redisPassword, url: redisUrl, host: `user:${s.hostPassword}@10.0.0.1` },
        };
        // What a configuration's owner knows to be secret: values under secret keys, URL credentials, credential headers.
        const found = [webhookUrl, redisUrl, `user:${s.hostPassword}@10.0.0.1`, `https://u:${s.originPassword}@app.example`].map(urlCredentials);
        const known = [s.appSecret, s.redisPassword, s.passphrase, s.otherHeader, ...headerSecrets(headers).secrets, ...found.flatMap((f) => f.secrets)];
        const masked = createSecretMasker({ secrets: known, identifiers: found.flatMap((f) => f.identifiers), minLength: 4 }).value(config);
        const strings = [JSON.stringify(masked), ...stringsIn(masked)];
        for (const value of all) {
          for (const text of strings) expect(text).not.toContain(value);
        }
        for (const text of strings) expect(text).not.toContain(encodeURIComponent(s.appSecret));
        // The app key is public: shown.
        expect(JSON.stringify(masked)).toContain('app-key');
      }),
      { numRuns: 300 },
    );
  });
});
