import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './load-config.js';

const dir = mkdtempSync(join(tmpdir(), 'realtime-config-property-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/**
 * A secret as operators have them: starts with a letter, holds a digit
 * (generated secrets do: hex, base64), and may hold YAML's own characters
 * (`:`, `#`, `&`, `*`, `!`, `{`, `,` ...), which is how documents break.
 */
const secretArb = fc
  .tuple(fc.stringMatching(/^[A-Za-z]$/), fc.stringMatching(/^[A-Za-z0-9._~+/=!@$%^&*:#,{}[\]|>?<` -]{6,30}$/), fc.integer({ min: 0, max: 9 }))
  .map(([first, middle, digit]) => `${first}${middle}${digit}`)
  .filter((secret) => secret.trim() === secret);

type Quote = 'plain' | 'single' | 'double';
const quoteArb = fc.constantFrom<Quote>('plain', 'single', 'double');
const quoted = (value: string, quote: Quote) => (quote === 'plain' ? value : quote === 'single' ? `'${value.replaceAll("'", "''")}'` : `"${value}"`);

/** Where the secret sits in an otherwise valid config: every kind of secret the daemon has. */
const yamlTemplates: ((secret: string, quote: Quote) => string)[] = [
  (s, q) => `applications:\n  - id: 1\n    key: app-key\n    secret: ${quoted(s, q)}\n    max_connections: 10\nservers:\n  main:\n    port: 6001\n`,
  (s, q) => `applications:\n  - { id: 1, key: app-key, secret: ${quoted(s, q)}, enable_client_messages: true }\n`,
  (s, q) => `redis:\n  host: 127.0.0.1\n  password: ${quoted(s, q)}\nscaling:\n  enabled: true\n`,
  (s, q) => `servers:\n  main:\n    options:\n      tls:\n        cert: /etc/c.pem\n        key: /etc/k.pem\n        passphrase: ${quoted(s, q)}\n`,
  (s, q) => `applications:\n  - id: 1\n    key: k\n    secret: other-secret-1\n    webhooks:\n      - url: https://hooks.example/in\n        headers:\n          Authorization: ${quoted(`Bearer ${s}`, q)}\n`,
  (s, q) => `scaling:\n  enabled: true\n  server:\n    url: ${quoted(`redis://user:${s}@127.0.0.1:6379/0`, q)}\n`,
];

/** What breaks a document: YAML's significant characters, tabs, newlines, cuts, moved lines. */
const mutationArb = fc.oneof(
  fc.record({ kind: fc.constant('insert' as const), at: fc.double({ min: 0, max: 1, noNaN: true }), text: fc.constantFrom(':', ': ', '-', '- ', '{', '}', '[', ']', '"', "'", '\t', '\n', '\n  ', ' ', '#', '&a ', '*a', '!', '|', '>', '%', '@', '`', ',', '?', '\\', '\\q', '---\n', '\r') }),
  fc.record({ kind: fc.constant('delete' as const), at: fc.double({ min: 0, max: 1, noNaN: true }), length: fc.integer({ min: 1, max: 8 }) }),
  fc.record({ kind: fc.constant('indent' as const), line: fc.nat(), by: fc.integer({ min: -4, max: 4 }) }),
  fc.record({ kind: fc.constant('duplicateLine' as const), line: fc.nat() }),
  fc.record({ kind: fc.constant('truncate' as const), at: fc.double({ min: 0, max: 1, noNaN: true }) }),
);
type Mutation = typeof mutationArb extends fc.Arbitrary<infer M> ? M : never;

function mutate(text: string, mutation: Mutation): string {
  const position = (at: number) => Math.floor(at * text.length);
  switch (mutation.kind) {
    case 'insert':
      return text.slice(0, position(mutation.at)) + mutation.text + text.slice(position(mutation.at));
    case 'delete':
      return text.slice(0, position(mutation.at)) + text.slice(position(mutation.at) + mutation.length);
    case 'truncate':
      return text.slice(0, position(mutation.at));
    case 'indent':
    case 'duplicateLine': {
      const lines = text.split('\n');
      const index = mutation.line % lines.length;
      const line = lines[index]!;
      if (mutation.kind === 'duplicateLine') lines.splice(index, 0, line);
      else lines[index] = mutation.by >= 0 ? ' '.repeat(mutation.by) + line : line.replace(new RegExp(`^ {0,${-mutation.by}}`), '');
      return lines.join('\n');
    }
  }
}

async function errorFor(name: string, content: string, env: NodeJS.ProcessEnv = {}): Promise<ConfigError | undefined> {
  const path = join(dir, name);
  writeFileSync(path, content);
  try {
    await loadConfig({ file: path, env });
    return undefined;
  } catch (error) {
    // Anything but a ConfigError (a crash of the loader) fails the property.
    expect(error).toBeInstanceOf(ConfigError);
    return error as ConfigError;
  }
}

describe('configuration errors, for hostile documents', () => {
  it('never contain the secret of a broken YAML document, and name line and column of syntax errors', async () => {
    await fc.assert(
      fc.asyncProperty(secretArb, quoteArb, fc.nat(yamlTemplates.length - 1), fc.array(mutationArb, { minLength: 1, maxLength: 4 }), async (secret, quote, template, mutations) => {
        const document = mutations.reduce(mutate, yamlTemplates[template]!(secret, quote));
        fc.pre(document.includes(secret));
        const error = await errorFor('config.yaml', document);
        if (!error) return;
        expect(error.message).not.toContain(secret);
        if (error.message.includes('is not valid YAML at')) expect(error.message).toMatch(/at line \d+, column \d+/);
      }),
      { numRuns: 600 },
    );
  });

  it('never contain the secret of a broken JSON document, and name line and column of syntax errors', async () => {
    const jsonSecretArb = secretArb.map((secret) => secret.replaceAll('\\', ''));
    await fc.assert(
      fc.asyncProperty(jsonSecretArb, fc.array(mutationArb, { minLength: 1, maxLength: 3 }), async (secret, mutations) => {
        const valid = JSON.stringify({ applications: [{ id: '1', key: 'k', secret, max_connections: 5 }], redis: { password: secret } }, null, 2);
        const document = mutations.reduce(mutate, valid);
        fc.pre(document.includes(secret));
        const error = await errorFor('config.json', document);
        if (!error) return;
        expect(error.message).not.toContain(secret);
        if (error.message.includes('is not valid JSON')) expect(error.message).toMatch(/is not valid JSON at line \d+, column \d+( \(in [^)]*\))?: expected /);
      }),
      { numRuns: 300 },
    );
  });

  it('never contain a secret of a well-formed document with invalid values around it, or of the environment', async () => {
    const junkArb = fc.oneof(fc.integer(), fc.string(), fc.boolean(), fc.constant(null), fc.array(fc.string(), { maxLength: 2 }), fc.dictionary(fc.string(), fc.integer(), { maxKeys: 2 }));
    await fc.assert(
      fc.asyncProperty(secretArb, junkArb, fc.constantFrom('id', 'key', 'max_connections', 'webhooks', 'allowed_origins', 'secret', 'unknown_option'), fc.boolean(), async (secret, junk, junkKey, viaEnv) => {
        const app: Record<string, unknown> = { id: '1', key: 'k', secret, [junkKey]: junk };
        const config = { applications: [app], redis: { password: secret }, servers: { main: { options: { tls: { cert: 'c', key: 'k', passphrase: secret } }, port: junk } } };
        const env: NodeJS.ProcessEnv = viaEnv ? { REALTIME_APP_SECRET: secret, REALTIME_APP_ID: JSON.stringify(junk), REALTIME_PORT: JSON.stringify(junk) } : {};
        const error = await errorFor('valid.json', JSON.stringify(config), env);
        if (error) expect(error.message).not.toContain(secret);
      }),
      { numRuns: 300 },
    );
  });

  it('are well-formed for any file: random text, NUL, unicode, deep nesting, keys given twice, values of the wrong type', async () => {
    const nested = (open: string, close: string, depth: number) => open.repeat(depth) + close.repeat(depth);
    const hostile = (secret: string) =>
      fc.oneof(
        fc.string({ unit: 'binary', maxLength: 120 }).map((text) => `${text}\n"redis": {"password": "${secret}"}`),
        fc.jsonValue({ maxDepth: 3 }).map((junk) => JSON.stringify({ applications: [{ id: '1', key: 'k', secret, max_connections: junk }], servers: junk, logging: { scopes: junk } })),
        fc.integer({ min: 1, max: 20_000 }).map((depth) => `{"redis": {"password": "${secret}"}, "logging": {"scopes": ${nested('[', '', depth)}`),
        fc.integer({ min: 1, max: 20_000 }).map((depth) => `redis: {password: "${secret}"}\nservers: ${nested('[', ']', depth)}\n`),
        fc.constantFrom(`{"redis": {"password": "${secret}"}, "redis": {"password": "${secret}\u0000"}}`, `redis:\n  password: '${secret}'\nredis: {}\n`, `\uFEFF{"applications": [{"id": "\u{1F600}", "key": "k\u0000", "secret": "${secret}"}], "x": 1,}`, ''),
      );
    const wellFormed = [
      /^config file \S+ is not valid JSON at line \d+, column \d+( \(in [^)\n]*\))?: expected [^\n]+$/,
      /^config file \S+ is not valid YAML at line \d+, column \d+( \(in [^)\n]*\))?: [^\n]+$/,
      /^config file \S+ is not valid YAML: [^\n]+$/,
      /^config file \S+ is not accepted: at line \d+, column \d+ collections nest deeper than \d+ levels$/,
      /^invalid configuration:(\n {2}- [^\n]+: [^\n]+)+(\n {2}\.\.\. and \d+ more)?$/,
      /^the configuration must be an object$/,
      /^[a-z_.]+: [^\n]+$/,
    ];
    await fc.assert(
      fc.asyncProperty(secretArb.filter((secret) => !/["\\]/.test(secret)).chain((secret) => fc.tuple(fc.constant(secret), hostile(secret))), fc.constantFrom('.json', '.yaml'), async ([secret, text], extension) => {
        const error = await errorFor(`hostile${extension}`, text);
        if (!error) return;
        expect(error.message).not.toContain(secret);
        expect(wellFormed.some((form) => form.test(error.message)), error.message).toBe(true);
      }),
      { numRuns: 200 },
    );
  });
});
