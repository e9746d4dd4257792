import { readFileSync } from 'node:fs';
import { Ajv } from 'ajv';
import fc from 'fast-check';
import { parse as parseYaml } from 'yaml';
import { z } from 'zod';
import { describe, expect, it } from 'vitest';
import { configJsonSchema, schemaKeyPaths } from './json-schema.js';
import { describeKey } from './schema-descriptions.js';
import { configSchema } from './schema.js';

const schema = configJsonSchema();

/**
 * Ajv as editors use the schema, with one difference: `format: "uri"` is
 * checked as zod checks it (WHATWG URL parsing), so that formats do not hide
 * a structural disagreement. Editors check it by RFC 3986, or not at all.
 */
const ajv = new Ajv({ strict: true, allErrors: false });
ajv.addFormat('uri', (text: string) => z.url().safeParse(text).success);
const jsonSchemaSays = ajv.compile(schema);
const zodSays = (value: unknown) => configSchema.safeParse(value).success;

/** What a file holding `value` gives the server (no undefined, no -0). */
const asFile = (value: unknown): unknown => JSON.parse(JSON.stringify(value)) as unknown;

describe('the JSON Schema of the config file (config.schema.json)', () => {
  it('is the committed file, regenerated from the zod schema (update with `pnpm --filter @org/realtime-server config-schema`)', async () => {
    await expect(`${JSON.stringify(schema, null, 2)}\n`).toMatchFileSnapshot('../../config.schema.json');
  });

  it('is a valid draft-07 schema with an $id, a title and a description for every key', () => {
    expect(schema['$schema']).toBe('http://json-schema.org/draft-07/schema#');
    expect(schema['$id']).toMatch(/^https:\/\//);
    expect(schema['title']).toEqual(expect.any(String));
    expect(ajv.validateSchema(schema)).toBe(true);
    const undocumented = schemaKeyPaths(schema).filter((path) => !describeKey(path));
    expect(undocumented).toEqual([]);
  });

  it('accepts the examples of the README\'s Configuration section, as zod does', () => {
    const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
    // The section's own text, up to its first subsection (whose blocks are command output).
    const start = readme.indexOf('\n## Configuration');
    const section = readme.slice(start, readme.slice(start + 1).search(/\n##+ /) + start + 1);
    const blocks = [...section.matchAll(/```(json|yaml)\n([\s\S]*?)```/g)].map(([, language, text]) => (language === 'json' ? JSON.parse(text!) : parseYaml(text!)) as unknown);
    expect(blocks.length).toBeGreaterThanOrEqual(2);
    for (const example of blocks) {
      expect(configSchema.safeParse(example).error?.issues ?? []).toEqual([]);
      expect(jsonSchemaSays(example), JSON.stringify(jsonSchemaSays.errors)).toBe(true);
    }
  });

  const valid: unknown[] = [
    {},
    { $schema: './node_modules/@org/realtime-server/config.schema.json' },
    { servers: { main: { port: 0, path: '/realtime', protocol_version: 7, options: { tls: { cert: 'c.pem', key: 'k.pem' } } } } },
    { applications: [{ id: 7, key: 'k', secret: 's', webhooks: [{ url: 'https://h.example/in', event_types: ['member_added'], headers: { 'X-A': 'b' } }] }] },
    { default: 'edge', servers: { edge: { host: '127.0.0.1' } }, scaling: { enabled: true, server: { url: 'redis://127.0.0.1:6379/0' } } },
    { rate_limiter: { enabled: true, driver: 'redis', redis: { port: 6380 } }, logging: { scopes: { 'socket.connection': true } }, metrics: { port: 9464 } },
  ];
  const invalid: unknown[] = [
    [],
    'servers: {}',
    { unknown: 1 },
    { servers: { main: { port: 65_536 } } },
    { servers: { main: { port: 1.5 } } },
    { servers: { main: { path: 'realtime' } } },
    { servers: { main: { protocol_version: 6 } } },
    { servers: { main: { options: { tls: { cert: 'c.pem' } } } } },
    { applications: [{ id: '', key: 'k', secret: 's' }] },
    { applications: [{ id: '1', key: 'k' }] },
    { applications: [{ id: '1', key: 'k', secret: 's', allowed_origins: [] }] },
    { applications: [{ id: '1', key: 'k', secret: 's', max_json_depth: 1_001 }] },
    { applications: [{ id: '1', key: 'k', secret: 's', webhooks: [{ url: 'not a url' }] }] },
    { applications: [{ id: '1', key: 'k', secret: 's', webhooks: [{ url: 'https://h.example', max_queue_bytes: 1_023 }] }] },
    { rate_limiter: { driver: 'memcached' } },
    { scaling: { outbox_max_seconds: 3_601 } },
    { logging: { scopes: { 'socket.connection': 'no' } } },
    { redis: { timeout: 0 } },
  ];

  it('agrees with zod on a set of valid and invalid configs', () => {
    for (const config of valid) expect([zodSays(config), jsonSchemaSays(config)], JSON.stringify(config)).toEqual([true, true]);
    for (const config of invalid) expect([zodSays(config), jsonSchemaSays(config)], JSON.stringify(config)).toEqual([false, false]);
  });

  it('refuses, unlike zod, an app id that zod would coerce from true, null or an object (the one intentional gap)', () => {
    for (const id of [true, null, { a: 1 }, [1]]) {
      const config = { applications: [{ id, key: 'k', secret: 's' }] };
      expect([zodSays(config), jsonSchemaSays(config)]).toEqual([true, false]);
    }
  });

  it('says valid exactly when zod does, for configs generated near the schema (valid, boundary and wrong values)', () => {
    fc.assert(
      fc.property(arbitraryNear(schema), (generated) => {
        const config = asFile(generated);
        const zod = zodSays(config);
        const json = jsonSchemaSays(config);
        // Never looser than zod; as strict as zod except for the documented app-id gap.
        if (json) expect(zod).toBe(true);
        if (!hasIdOfOtherType(config)) expect(json).toBe(zod);
      }),
      { numRuns: 2_000 },
    );
  });
});

function hasIdOfOtherType(config: unknown): boolean {
  const apps = (config as { applications?: unknown } | null)?.applications;
  return Array.isArray(apps) && apps.some((app) => typeof app === 'object' && app !== null && 'id' in app && !['string', 'number'].includes(typeof (app as { id: unknown }).id));
}

type Node = Record<string, unknown>;

/** Wrong values of every type. */
const junk = fc.oneof(fc.constant(null), fc.boolean(), fc.integer({ min: -3, max: 70_000 }), fc.double({ noNaN: true, noDefaultInfinity: true }), fc.string({ maxLength: 4 }), fc.constant([]), fc.constant({}));

const recordNames = fc.constantFrom('main', 'edge', 'socket.connection', 'X-Token', '');

function bounds(node: Node): { low: number; high: number } {
  const integer = node['type'] === 'integer';
  const step = integer ? 1 : 0.001;
  const low = typeof node['minimum'] === 'number' ? node['minimum'] : typeof node['exclusiveMinimum'] === 'number' ? node['exclusiveMinimum'] + step : -10;
  const high = Math.min(typeof node['maximum'] === 'number' ? node['maximum'] : 1e6, 1e6);
  return { low, high };
}

/** A value the node accepts. */
function good(node: Node): fc.Arbitrary<unknown> {
  if (Array.isArray(node['anyOf'])) return fc.oneof(...(node['anyOf'] as Node[]).map(good));
  if ('const' in node) return fc.constant(node['const']);
  if (Array.isArray(node['enum'])) return fc.constantFrom(...(node['enum'] as unknown[]));
  switch (node['type']) {
    case 'boolean':
      return fc.boolean();
    case 'integer': {
      const { low, high } = bounds(node);
      return fc.oneof(fc.constantFrom(low, high), fc.integer({ min: low, max: high }));
    }
    case 'number': {
      const { low, high } = bounds(node);
      return fc.double({ min: low, max: high, noNaN: true });
    }
    case 'string':
      if (node['format'] === 'uri') return fc.constantFrom('https://h.example/in', 'http://127.0.0.1:9000/hook?x=1');
      if (typeof node['pattern'] === 'string') return fc.constantFrom('', '/realtime', '/a/b.c~d');
      return fc.string({ minLength: (node['minLength'] as number | undefined) ?? 0, maxLength: 6 });
    case 'array':
      return fc.array(child(node['items'] as Node), { minLength: (node['minItems'] as number | undefined) ?? 0, maxLength: 2 });
    case 'object': {
      const properties = node['properties'] as Record<string, Node> | undefined;
      if (!properties) return fc.dictionary(recordNames, child(node['additionalProperties'] as Node), { maxKeys: 2 });
      const required = new Set((node['required'] as string[] | undefined) ?? []);
      const entries = Object.entries(properties).map(([key, value]) => fc.tuple(fc.constant(key), required.has(key) ? fc.constant(true) : fc.boolean(), child(value)));
      return fc.tuple(...entries).map((values) => Object.fromEntries(values.filter(([, present]) => present).map(([key, , value]) => [key, value])));
    }
    default:
      return junk;
  }
}

/** A value next to what the node accepts: past a bound, of the wrong type, an unknown or missing key. */
function near(node: Node): fc.Arbitrary<unknown> {
  const own: fc.Arbitrary<unknown>[] = [junk];
  if (Array.isArray(node['enum'])) own.push(fc.constant('other'));
  if ('const' in node) own.push(fc.constant(typeof node['const'] === 'string' ? 6 : '6'));
  if (node['type'] === 'integer' || node['type'] === 'number') {
    const { low, high } = bounds(node);
    own.push(fc.constantFrom(low - 1, high + 1, low + 0.5, low - 0.001, 9_007_199_254_740_992));
  }
  if (node['type'] === 'string') own.push(fc.constantFrom('', 'not a url', 'mailto:a@b.example', 'http://', 'realtime', '/a b', '//x', '/a/'));
  if (node['type'] === 'array') own.push(fc.constant([]), fc.array(junk, { minLength: 1, maxLength: 2 }));
  if (node['type'] === 'object' && node['properties']) {
    own.push(good(node).map((value) => ({ ...(value as object), unknown_key: 1 })));
    const required = (node['required'] as string[] | undefined) ?? [];
    if (required.length) own.push(fc.tuple(good(node), fc.constantFrom(...required)).map(([value, key]) => Object.fromEntries(Object.entries(value as object).filter(([name]) => name !== key))));
  }
  return fc.oneof(...own);
}

/** Mostly good, sometimes near: a generated config has a deviation or two somewhere, or none. */
function child(node: Node): fc.Arbitrary<unknown> {
  return fc.oneof({ arbitrary: good(node), weight: 40 }, { arbitrary: near(node), weight: 1 });
}

/** Configs shaped like the schema, valid or with a few wrong values anywhere. */
function arbitraryNear(root: Node): fc.Arbitrary<unknown> {
  return good(root);
}
