export { startDaemon, type Daemon, type DaemonOptions } from './daemon.js';
export { loadConfig, ConfigError, type LoadConfigOptions, type LoadedConfig } from './config/load-config.js';
export { configSchema, type Config } from './config/schema.js';
export { createLogging, type Logging } from './logging.js';
