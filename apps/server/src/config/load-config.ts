import { randomBytes, randomInt } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { extname } from 'node:path';
import { parseDocument } from 'yaml';
import type { z } from 'zod';
import { findJsonSyntaxError } from './json-syntax-errors.js';
import { redactSecrets, secretsInText, secretsInValue } from './safe-config-errors.js';
import { applicationSchema, configSchema, type Config } from './schema.js';
import { formatPath, showKey } from './shown-keys.js';
import { describePosition } from './text-position.js';
import { maxYamlDepth, yamlTooDeep } from './yaml-depth.js';
import { findDuplicateYamlKey } from './yaml-duplicate-keys.js';
import { describeYamlProblem, yamlPathAt } from './yaml-syntax-errors.js';

/**
 * A configuration problem, with every invalid key listed. The message never
 * quotes the file or a value: it names line, column and key path
 * (text-position.ts, shown-keys.ts), since it goes to stderr and logs.
 */
export class ConfigError extends Error {
  readonly code = 'CONFIG_INVALID';
  override readonly name = 'ConfigError';
}

export interface LoadConfigOptions {
  /** A JSON or YAML file. */
  file?: string | undefined;
  env?: NodeJS.ProcessEnv;
  /** CLI overrides for the default server. */
  host?: string | undefined;
  port?: number | undefined;
  /** CLI `--workers`. */
  workers?: number | 'auto' | undefined;
}

export interface LoadedConfig {
  config: Config;
  /** True when no application was configured and one was generated. */
  generatedApp: boolean;
  /** What was validated: the file's document with the environment overrides applied (for `config print`'s sources). */
  input: Record<string, unknown>;
  /** Dotted key path -> the environment variable that set it. */
  envSources: ReadonlyMap<string, string>;
}

async function readText(file: string): Promise<string> {
  try {
    return await readFile(file, 'utf8');
  } catch (error) {
    // Node's message names the path and the errno, never the content.
    throw new ConfigError(`cannot read config file ${file}: ${(error as Error).message}`);
  }
}

function parseYamlConfig(file: string, text: string): unknown {
  const deep = yamlTooDeep(text);
  if (deep) throw new ConfigError(`config file ${file} is not accepted: at ${describePosition(text, deep.offset, [])} collections nest deeper than ${maxYamlDepth} levels`);
  // logLevel 'error': the yaml package's warnings (process.emitWarning, on stderr) quote the text, e.g. a key made of a collection.
  // uniqueKeys off: the package's own check is quadratic in a mapping's size; findDuplicateYamlKey is linear.
  const document = parseDocument(text, { prettyErrors: false, uniqueKeys: false, logLevel: 'error' });
  const [error] = document.errors;
  if (error) {
    const offset = error.pos[0];
    throw new ConfigError(`config file ${file} is not valid YAML at ${describePosition(text, offset, yamlPathAt(document.contents, offset))}: ${describeYamlProblem(error.code)}`);
  }
  const duplicate = findDuplicateYamlKey(document.contents);
  if (duplicate) {
    throw new ConfigError(`config file ${file} is not valid YAML at ${describePosition(text, duplicate.offset, yamlPathAt(document.contents, duplicate.offset))}: ${describeYamlProblem('DUPLICATE_KEY')}`);
  }
  try {
    return document.toJS({ maxAliasCount: 100 });
  } catch {
    // The yaml package names the alias in this message, and an alias is text of the file.
    throw new ConfigError(`config file ${file} is not valid YAML: an alias (*name) refers to no anchor (&name) before it, or aliases expand too much`);
  }
}

function parseJsonConfig(file: string, text: string): unknown {
  try {
    // A byte order mark (Notepad, PowerShell 5 write one) is not JSON, but it is no error of the config either.
    return JSON.parse(text.startsWith('\uFEFF') ? text.slice(1) : text);
  } catch {
    // V8's message quotes the text around the error; the position is found again without it.
    const found = findJsonSyntaxError(text);
    const where = found ? ` at ${describePosition(text, found.offset, found.path)}: expected ${found.expected}` : '';
    throw new ConfigError(`config file ${file} is not valid JSON${where}`);
  }
}

/** Where environment overrides put their values, to say so in errors. */
type EnvSources = Map<string, string>;

/** Problems listed in one message; a file with thousands (a generated one) gets the first ones and a count. */
const maxListedIssues = 20;

function formatIssues(error: z.ZodError, envSources: EnvSources): string {
  const more = error.issues.length - maxListedIssues;
  const listed = error.issues
    .slice(0, maxListedIssues)
    .map((issue) => {
      // zod's own message for unknown keys quotes them; a key may be a value a broken document turned into one.
      const message = issue.code === 'unrecognized_keys' ? `Unrecognized key${issue.keys.length > 1 ? 's' : ''}: ${issue.keys.map((key) => `"${showKey(key)}"`).join(', ')}` : issue.message;
      const path = issue.path.map((segment) => (typeof segment === 'symbol' ? '*' : segment));
      const source = envSources.get(path.slice(0, 3).join('.')) ?? envSources.get(path.slice(0, 2).join('.'));
      return `  - ${formatPath(path)}: ${message}${source ? ` (set by ${source})` : ''}`;
    })
    .join('\n');
  return more > 0 ? `${listed}\n  ... and ${more} more` : listed;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * The default server's entry, for REALTIME_HOST/PORT/PATH to write into: made only where the file
 * has none at all. A `servers` or server entry of the wrong type, or a `default` naming no server
 * of a non-empty `servers`, is left for validation to refuse: replacing it with a fresh entry
 * would start a server on 0.0.0.0:8080 in place of the one the file describes.
 */
function serverToOverride(raw: Record<string, unknown>, defaultName: string): Record<string, unknown> | undefined {
  if (raw['servers'] === undefined) raw['servers'] = {};
  const servers = raw['servers'];
  if (!isRecord(servers)) return undefined;
  const server = servers[defaultName];
  if (isRecord(server)) return server;
  if (server === undefined && Object.keys(servers).length === 0) return (servers[defaultName] = {});
  return undefined;
}

/**
 * Environment overrides, applied on top of the file before validation:
 * REALTIME_HOST, REALTIME_PORT, REALTIME_PATH (default server);
 * REALTIME_APP_ID, REALTIME_APP_KEY, REALTIME_APP_SECRET (replace the app list with one app);
 * REDIS_URL (turns scaling on with that Redis); REALTIME_WORKERS (workers); REALTIME_DEBUG=true (debug logging).
 */
function applyEnv(raw: Record<string, unknown>, env: NodeJS.ProcessEnv): EnvSources {
  const sources: EnvSources = new Map();
  const defaultName = typeof raw['default'] === 'string' ? raw['default'] : 'main';
  const fromEnv = (target: Record<string, unknown>, key: string, path: string, name: string, value: unknown) => {
    target[key] = value;
    sources.set(path, name);
  };
  const overridesServer = Boolean(env['REALTIME_HOST'] || env['REALTIME_PORT'] || env['REALTIME_PATH'] !== undefined);
  const server = overridesServer ? serverToOverride(raw, defaultName) : undefined;
  if (server && env['REALTIME_HOST']) fromEnv(server, 'host', `servers.${defaultName}.host`, 'REALTIME_HOST', env['REALTIME_HOST']);
  if (server && env['REALTIME_PORT']) fromEnv(server, 'port', `servers.${defaultName}.port`, 'REALTIME_PORT', Number(env['REALTIME_PORT']));
  if (server && env['REALTIME_PATH'] !== undefined) fromEnv(server, 'path', `servers.${defaultName}.path`, 'REALTIME_PATH', env['REALTIME_PATH']);
  if (env['REALTIME_APP_ID'] || env['REALTIME_APP_KEY'] || env['REALTIME_APP_SECRET']) {
    raw['applications'] = [{ id: env['REALTIME_APP_ID'], key: env['REALTIME_APP_KEY'], secret: env['REALTIME_APP_SECRET'] }];
    sources.set('applications.0.id', 'REALTIME_APP_ID').set('applications.0.key', 'REALTIME_APP_KEY').set('applications.0.secret', 'REALTIME_APP_SECRET');
  }
  if (env['REDIS_URL']) {
    const scaling = isRecord(raw['scaling']) ? raw['scaling'] : (raw['scaling'] = {});
    scaling['enabled'] = true;
    scaling['server'] = { ...(isRecord(scaling['server']) ? scaling['server'] : {}), url: env['REDIS_URL'] };
    sources.set('scaling.enabled', 'REDIS_URL').set('scaling.server.url', 'REDIS_URL');
  }
  if (env['REALTIME_WORKERS']) {
    const workers = env['REALTIME_WORKERS'];
    fromEnv(raw, 'workers', 'workers', 'REALTIME_WORKERS', /^[0-9]+$/.test(workers) ? Number(workers) : workers);
  }
  if (env['REALTIME_DEBUG'] === 'true') {
    const logging = isRecord(raw['logging']) ? raw['logging'] : (raw['logging'] = {});
    logging['debug_enabled'] = true;
    sources.set('logging.debug_enabled', 'REALTIME_DEBUG');
  }
  return sources;
}

/**
 * Reads, overrides and validates the configuration; throws ConfigError
 * naming each bad key, and never a value: whatever was found under a
 * secret-looking key (in the file, parsed or not, and in the environment) is
 * cut out of the message as a last guard.
 */
export async function loadConfig(options: LoadConfigOptions = {}): Promise<LoadedConfig> {
  const env = options.env ?? process.env;
  const secrets = secretsInValue({ secret: env['REALTIME_APP_SECRET'], url: env['REDIS_URL'] });
  try {
    return await loadUnguarded(options, env, secrets);
  } catch (error) {
    if (error instanceof ConfigError) throw new ConfigError(redactSecrets(error.message, secrets));
    throw error;
  }
}

async function loadUnguarded(options: LoadConfigOptions, env: NodeJS.ProcessEnv, secrets: Set<string>): Promise<LoadedConfig> {
  let raw: unknown = {};
  if (options.file) {
    const text = await readText(options.file);
    secretsInText(text, secrets);
    raw = ['.yaml', '.yml'].includes(extname(options.file)) ? parseYamlConfig(options.file, text) : parseJsonConfig(options.file, text);
    secretsInValue(raw, secrets);
  }
  if (!isRecord(raw)) throw new ConfigError('the configuration must be an object');
  const envSources = applyEnv(raw, env);

  const parsed = configSchema.safeParse(raw);
  if (!parsed.success) throw new ConfigError(`invalid configuration:\n${formatIssues(parsed.error, envSources)}`);
  const config = parsed.data;

  const server = config.servers[config.default];
  if (!server) throw new ConfigError(`default: no server named "${config.default}" in servers`);
  if (options.host !== undefined) server.host = options.host;
  if (options.port !== undefined) server.port = options.port;
  if (options.workers !== undefined) config.workers = options.workers;
  if (config.metrics.enabled && config.metrics.port !== undefined && config.metrics.port !== 0 && config.metrics.port === server.port) {
    throw new ConfigError(`metrics.port: must differ from the port of servers.${showKey(config.default)} (${server.port}); leave it out to serve /metrics on that port`);
  }

  const ids = new Set(config.applications.map((app) => app.id));
  const keys = new Set(config.applications.map((app) => app.key));
  if (ids.size !== config.applications.length) throw new ConfigError('applications: every id must be unique');
  if (keys.size !== config.applications.length) throw new ConfigError('applications: every key must be unique');

  const generatedApp = config.applications.length === 0;
  if (generatedApp) {
    config.applications.push(
      applicationSchema.parse({
        id: String(randomInt(100_000, 999_999)),
        key: randomBytes(10).toString('hex'),
        secret: randomBytes(20).toString('hex'),
        name: 'default',
      }),
    );
  }
  return { config, generatedApp, input: raw, envSources };
}
