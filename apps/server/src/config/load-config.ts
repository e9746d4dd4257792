import { randomBytes, randomInt } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { extname } from 'node:path';
import { parse as parseYaml } from 'yaml';
import type { z } from 'zod';
import { applicationSchema, configSchema, type Config } from './schema.js';

/** A configuration problem, with every invalid key listed. */
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
}

export interface LoadedConfig {
  config: Config;
  /** True when no application was configured and one was generated. */
  generatedApp: boolean;
}

async function readConfigFile(file: string): Promise<unknown> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    throw new ConfigError(`cannot read config file ${file}: ${(error as Error).message}`);
  }
  try {
    return ['.yaml', '.yml'].includes(extname(file)) ? parseYaml(text) : JSON.parse(text);
  } catch (error) {
    throw new ConfigError(`config file ${file} is not valid ${extname(file) === '.json' ? 'JSON' : 'YAML'}: ${(error as Error).message}`);
  }
}

function formatIssues(error: z.ZodError): string {
  return error.issues
    .map((issue) => `  - ${issue.path.length ? issue.path.join('.') : '(root)'}: ${issue.message}`)
    .join('\n');
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Environment overrides, applied on top of the file before validation:
 * REALTIME_HOST, REALTIME_PORT, REALTIME_PATH (default server);
 * REALTIME_APP_ID, REALTIME_APP_KEY, REALTIME_APP_SECRET (replace the app list with one app);
 * REDIS_URL (turns scaling on with that Redis); REALTIME_DEBUG=true (debug logging).
 */
function applyEnv(raw: Record<string, unknown>, env: NodeJS.ProcessEnv): void {
  const defaultName = typeof raw['default'] === 'string' ? raw['default'] : 'main';
  const servers = isRecord(raw['servers']) ? raw['servers'] : (raw['servers'] = {});
  const server = isRecord(servers[defaultName]) ? servers[defaultName] : (servers[defaultName] = {});
  if (env['REALTIME_HOST']) server['host'] = env['REALTIME_HOST'];
  if (env['REALTIME_PORT']) server['port'] = Number(env['REALTIME_PORT']);
  if (env['REALTIME_PATH'] !== undefined) server['path'] = env['REALTIME_PATH'];
  if (env['REALTIME_APP_ID'] || env['REALTIME_APP_KEY'] || env['REALTIME_APP_SECRET']) {
    raw['applications'] = [{ id: env['REALTIME_APP_ID'], key: env['REALTIME_APP_KEY'], secret: env['REALTIME_APP_SECRET'] }];
  }
  if (env['REDIS_URL']) {
    const scaling = isRecord(raw['scaling']) ? raw['scaling'] : (raw['scaling'] = {});
    scaling['enabled'] = true;
    scaling['server'] = { ...(isRecord(scaling['server']) ? scaling['server'] : {}), url: env['REDIS_URL'] };
  }
  if (env['REALTIME_DEBUG'] === 'true') {
    const logging = isRecord(raw['logging']) ? raw['logging'] : (raw['logging'] = {});
    logging['debug_enabled'] = true;
  }
}

/** Reads, overrides and validates the configuration; throws ConfigError naming each bad key. */
export async function loadConfig(options: LoadConfigOptions = {}): Promise<LoadedConfig> {
  const env = options.env ?? process.env;
  const raw = options.file ? await readConfigFile(options.file) : {};
  if (!isRecord(raw)) throw new ConfigError('the configuration must be an object');
  applyEnv(raw, env);

  const parsed = configSchema.safeParse(raw);
  if (!parsed.success) throw new ConfigError(`invalid configuration:\n${formatIssues(parsed.error)}`);
  const config = parsed.data;

  const server = config.servers[config.default];
  if (!server) throw new ConfigError(`default: no server named "${config.default}" in servers`);
  if (options.host !== undefined) server.host = options.host;
  if (options.port !== undefined) server.port = options.port;

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
  return { config, generatedApp };
}
