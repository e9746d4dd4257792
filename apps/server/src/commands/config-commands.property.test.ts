import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { parse as parseYaml, stringify as toYaml } from 'yaml';
import { afterAll, describe, expect, it } from 'vitest';
import { makeTestCertificate } from '../../test/helpers/tls-certificate.js';
import { ConfigError } from '../config/load-config.js';
import { checkConfigCommand } from './config-check.js';
import { printConfigCommand } from './config-print.js';

const dir = mkdtempSync(join(tmpdir(), 'realtime-config-commands-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

let files = 0;
function fileWith(extension: string, content: string): string {
  const path = join(dir, `c${files++}${extension}`);
  writeFileSync(path, content);
  return path;
}

/** Runs check, then print in both formats; what they wrote, or the ConfigError they threw (anything else fails). */
async function runAll(file: string, env: NodeJS.ProcessEnv): Promise<{ outputs: string[]; error?: ConfigError }> {
  const outputs: string[] = [];
  const write = (text: string) => void outputs.push(text);
  try {
    await checkConfigCommand({ name: 'config-check', config: file }, { env, write });
    await printConfigCommand({ name: 'config-print', config: file, format: 'yaml' }, { env, write });
    await printConfigCommand({ name: 'config-print', config: file, format: 'json' }, { env, write });
    return { outputs };
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return { outputs, error: error as ConfigError };
  }
}

const extension = fc.constantFrom('.json', '.yaml', '.yml', '');
const nested = (open: string, close: string, depth: number, inner = '1') => open.repeat(depth) + inner + close.repeat(depth);

/** Files nobody should write: random text, NUL, deep nesting, unicode and duplicate keys, values of every type. */
const hostileText = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 200 }),
  fc.string({ maxLength: 50 }).map((text) => `{"applications": [{"id": "1", "key": "k\u0000", "secret": "${text}\u0000"}]}\u0000`),
  fc.integer({ min: 1, max: 20_000 }).chain((depth) => fc.constantFrom(nested('[', ']', depth), nested('{"a":', '}', depth), `{"logging": {"scopes": ${nested('{"a":', '}', depth, 'true')}}}`, `a: ${nested('[', ']', depth)}`, nested('- ', '', Math.min(depth, 500)), `servers:\n  main: ${nested('{b: ', '}', depth)}`)),
  fc.dictionary(fc.string({ unit: 'binary', maxLength: 8 }), fc.jsonValue({ maxDepth: 3 }), { maxKeys: 5 }).map((value) => JSON.stringify(value)),
  fc.jsonValue({ maxDepth: 4 }).map((value) => JSON.stringify({ applications: [value], servers: { main: value }, logging: { scopes: value } })),
  fc.constantFrom(
    '{"default": "main", "default": "edge"}',
    'servers:\n  main: {}\nservers:\n  edge: {}\n',
    '{"__proto__": {"port": 1}}',
    '{"constructor": {"prototype": {}}}',
    '{"servers": {"__proto__": {"port": 1}}}',
    'a: &x [*x]\n',
    'a: &a [1]\nb: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a]\nc: [*b, *b, *b, *b, *b, *b, *b, *b, *b]\nd: [*c, *c, *c, *c, *c, *c, *c, *c, *c]\n',
    '\uFEFF{"servers": {}}',
    '--- !!binary\nAAAA\n',
    '%YAML 1.2\n---\n? [a, b]\n: c\n',
    '{"applications": [{"id": "1", "key": "k", "secret": "s"}, {"id": "1", "key": "k", "secret": "s"}]}',
  ),
);

describe('config check and config print, on hostile files', () => {
  it('answer or throw a ConfigError, never anything else, and print well-formed YAML and JSON', async () => {
    await fc.assert(
      fc.asyncProperty(hostileText, extension, async (text, ext) => {
        const { outputs, error } = await runAll(fileWith(ext, text), {});
        if (error) return;
        expect(outputs).toHaveLength(3);
        expect(outputs[0]).toMatch(/^configuration OK \(/);
        expect(() => parseYaml(outputs[1]!)).not.toThrow();
        expect(JSON.parse(outputs[2]!)).toMatchObject({ config: expect.any(Object), sources: expect.any(Object) });
      }),
      { numRuns: 300 },
    );
  });

  it('handle a huge file (5,000 apps: 1 MB of JSON, 75,000 printed values)', async () => {
    const apps = Array.from({ length: 5_000 }, (_, i) => ({ id: String(i), key: `key-${i}`, secret: `secret-${i}-Zq7w` }));
    const valid = await runAll(fileWith('.json', JSON.stringify({ applications: apps })), {});
    expect(valid.error).toBeUndefined();
    expect(valid.outputs.join('')).not.toContain('secret-4999-Zq7w');
    const invalid = await runAll(fileWith('.yaml', toYaml({ applications: apps.map((app) => ({ ...app, max_connections: -1 })) })), {});
    expect(invalid.error?.message).toMatch(/\n {2}\.\.\. and 4980 more$/);
  }, 60_000);
});

/** Secrets as operators have them, from a wide alphabet (YAML and JSON syntax included); no two alike. */
const secret = fc.string({ minLength: 6, maxLength: 24, unit: fc.constantFrom(...'abcXYZ0189-_.~:#&*!{}[],|>%@`"\'\\ /=+?é€😀') }).map((text) => `Sx${text}Q9`);
const urlSafeSecret = fc.string({ minLength: 6, maxLength: 20, unit: fc.constantFrom(...'abcdefXYZ0123456789-_.~') }).map((text) => `Ux${text}Q9`);

/** A real certificate and key for the TLS check, made once; the key is re-encrypted with each case's passphrase. */
const certificate = makeTestCertificate();

describe('config print', () => {
  it('never shows a secret of the file or the environment, wherever it sits', async () => {
    const secrets = fc.record({
      appSecret: secret,
      redisPassword: secret,
      scalingPassword: secret,
      limiterPassword: secret,
      passphrase: secret,
      header: secret,
      otherHeader: secret,
      urlPassword: urlSafeSecret,
      urlUser: urlSafeSecret,
      urlQuery: urlSafeSecret,
      redisUrlPassword: urlSafeSecret,
      envSecret: secret,
      envUrlPassword: urlSafeSecret,
      webhookPathToken: urlSafeSecret,
      hostPassword: urlSafeSecret,
      originPassword: urlSafeSecret,
    });
    await fc.assert(
      fc.asyncProperty(secrets, fc.boolean(), fc.boolean(), fc.constantFrom('.json', '.yaml'), async (s, viaEnv, withTls, ext) => {
        const all = Object.values(s);
        fc.pre(new Set(all).size === all.length);
        const tls = withTls ? { cert: fileWith('.pem', certificate.cert), key: fileWith('.pem', certificate.encryptedKey(s.passphrase)), passphrase: s.passphrase } : undefined;
        const config = {
          servers: { main: { port: 6001, ...(tls ? { options: { tls } } : {}) } },
          applications: [
            {
              id: '1',
              key: 'app-key',
              secret: s.appSecret,
              // The app secret again in other forms: percent-encoded in a URL, base64 in a Basic credential.
              name: `https://h.example/in/${encodeURIComponent(s.appSecret)} Basic ${Buffer.from(`user:${s.appSecret}`).toString('base64')}`,
              allowed_origins: [`https://u:${s.originPassword}@app.example`],
              webhooks: [
                { url: `https://${s.urlUser}:${s.urlPassword}@hooks.example/in?token=${s.urlQuery}`, headers: { Authorization: `Bearer ${s.header}`, 'X-Other': s.otherHeader } },
                // Slack, Discord and Zapier keep the credential in the path.
                { url: `https://discord.example/api/webhooks/123/${s.webhookPathToken}` },
              ],
            },
          ],
          redis: { password: s.redisPassword, url: `redis://default:${s.redisUrlPassword}@127.0.0.1:6379/0`, host: `user:${s.hostPassword}@10.0.0.1` },
          scaling: { server: { password: s.scalingPassword } },
          rate_limiter: { redis: { password: s.limiterPassword } },
        };
        const env: NodeJS.ProcessEnv = viaEnv ? { REALTIME_APP_ID: '2', REALTIME_APP_KEY: 'env-key', REALTIME_APP_SECRET: s.envSecret, REDIS_URL: `redis://u:${s.envUrlPassword}@127.0.0.1:6390/1?password=${s.envUrlPassword}` } : {};
        const { outputs, error } = await runAll(fileWith(ext, ext === '.json' ? JSON.stringify(config) : toYaml(config)), env);
        expect(error).toBeUndefined();
        const printed = outputs.join('\n');
        // In the text as written, and in every string of the parsed output (escaped forms included).
        const strings = [printed, ...stringsIn(parseYaml(outputs[1]!)), ...stringsIn(JSON.parse(outputs[2]!))];
        for (const value of all) {
          for (const text of strings) expect(text).not.toContain(value);
        }
        for (const text of strings) expect(text).not.toContain(encodeURIComponent(s.appSecret));
        // The app key is public: shown.
        expect(printed).toContain(viaEnv ? 'env-key' : 'app-key');
      }),
      { numRuns: 100 },
    );
    // Each case with TLS reads the files and builds a TLS context, as start-up does.
  }, 60_000);
});

function stringsIn(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  if (Array.isArray(value)) return value.flatMap(stringsIn);
  if (typeof value === 'object' && value !== null) return Object.entries(value).flatMap(([key, item]) => [key, ...stringsIn(item)]);
  return [];
}
