import { z } from 'zod';
import { describeKey } from './schema-descriptions.js';
import { configSchema } from './schema.js';

/** Where the published schema can be fetched without installing the package. */
const configSchemaId = 'https://cdn.jsdelivr.net/npm/@org/realtime-server/config.schema.json';

type JsonSchema = Record<string, unknown>;

/**
 * Walks a draft-07 schema as the config is nested: `properties.x` is `x`,
 * `items` is `[]`, an object's `additionalProperties` is `*` (any name).
 */
function eachProperty(schema: JsonSchema, path: string, visit: (schema: JsonSchema, path: string, key: string) => void): void {
  const properties = schema['properties'] as Record<string, JsonSchema> | undefined;
  for (const [key, child] of Object.entries(properties ?? {})) {
    const childPath = path ? `${path}.${key}` : key;
    visit(child, childPath, key);
    eachProperty(child, childPath, visit);
  }
  const items = schema['items'];
  if (items && typeof items === 'object') eachProperty(items as JsonSchema, `${path}[]`, visit);
  const additional = schema['additionalProperties'];
  if (additional && typeof additional === 'object') eachProperty(additional as JsonSchema, `${path}.*`, visit);
  for (const option of (schema['anyOf'] as JsonSchema[] | undefined) ?? []) eachProperty(option, path, visit);
}

/** Config paths of the schema's named keys (for the test that every key is described). */
export function schemaKeyPaths(schema: JsonSchema): string[] {
  const paths: string[] = [];
  eachProperty(schema, '', (_, path) => paths.push(path));
  return paths;
}

/** Every key name the schema declares, at any depth. */
export function schemaKeyNames(schema: JsonSchema): Set<string> {
  const names = new Set<string>();
  eachProperty(schema, '', (_schema, _path, key) => names.add(key));
  return names;
}

/**
 * The JSON Schema of the config file, from the zod schema the server
 * validates with (its input side: keys with defaults are optional and carry
 * `default`). Draft-07: what VS Code's JSON service and the YAML language
 * server support fully (2019-09 and 2020-12 only in part).
 *
 * Fixed up where zod's conversion says less than zod checks or more:
 * - `applications[].id` is coerced to text by zod; the schema takes a string or
 *   a number. zod also takes true, null or an object (as "true", "null",
 *   "[object Object]"): refused here on purpose, as mistakes.
 * - `format: "uri"` of webhook URLs: zod checks them with the WHATWG URL
 *   parser; editors check the format (if at all) by RFC 3986.
 * What no JSON Schema can say is left to start-up (and `config check`):
 * `default` naming an existing server, unique app ids and keys, `metrics.port`
 * differing from the server's port, and the TLS files being readable.
 */
export function configJsonSchema(): JsonSchema {
  const generated = z.toJSONSchema(configSchema, { target: 'draft-07', io: 'input', unrepresentable: 'throw' }) as JsonSchema;
  const { $schema, ...rest } = generated;
  const schema: JsonSchema = {
    $schema,
    $id: configSchemaId,
    title: '@org/realtime-server configuration',
    description:
      'The configuration file of realtime-server (JSON or YAML), passed with --config or REALTIME_CONFIG. Every key is optional. Check a file with `realtime-server config check`; see what the server would run with (secrets masked) with `realtime-server config print`.',
    ...rest,
  };
  const applications = (schema['properties'] as Record<string, JsonSchema>)['applications']!;
  const appProperties = (applications['items'] as JsonSchema)['properties'] as Record<string, JsonSchema>;
  appProperties['id'] = { anyOf: [{ type: 'string', minLength: 1 }, { type: 'number' }] };
  eachProperty(schema, '', (child, path) => {
    const description = describeKey(path);
    if (description) child['description'] = description;
  });
  return schema;
}
