import { loadConfig, type LoadedConfig } from './load-config.js';
import { checkTlsFiles } from './tls-files.js';

export interface CheckConfigOptions {
  /** A JSON or YAML file, as `--config` or REALTIME_CONFIG give it. */
  file?: string | undefined;
  env?: NodeJS.ProcessEnv;
}

/**
 * Everything `server` validates before it listens: the file, the
 * environment overrides and the cross-key rules (loadConfig, the very code
 * start-up runs), then the default server's TLS files (read and the key
 * decrypted, as the daemon does). Binds nothing, connects to nothing.
 * Throws ConfigError with the message start-up would print.
 */
export async function checkConfig(options: CheckConfigOptions = {}): Promise<LoadedConfig> {
  const loaded = await loadConfig({ file: options.file, env: options.env ?? process.env });
  const { config } = loaded;
  const tls = config.servers[config.default]?.options.tls;
  if (tls) await checkTlsFiles(tls);
  return loaded;
}
