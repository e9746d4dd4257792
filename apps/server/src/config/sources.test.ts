import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig } from './load-config.js';
import { configSources, describeSource, formatKeyPath } from './sources.js';

async function sourcesOf(content: string | undefined, env: NodeJS.ProcessEnv): Promise<Record<string, string>> {
  let file: string | undefined;
  if (content !== undefined) {
    file = join(mkdtempSync(join(tmpdir(), 'realtime-sources-')), 'c.yaml');
    writeFileSync(file, content);
  }
  const loaded = await loadConfig({ file, env });
  return Object.fromEntries(configSources(loaded).map(({ path, source }) => [formatKeyPath(path), describeSource(source)]));
}

describe('configSources', () => {
  it('names the file, the environment variable or the default for every value', async () => {
    const sources = await sourcesOf('servers:\n  main: { port: 6001, host: 10.0.0.1 }\napplications:\n  - { id: 7, key: k, secret: s, allowed_origins: [a.example] }\nlogging:\n  scopes: { socket.connection: true }\n', {
      REALTIME_HOST: '127.0.0.1',
      REDIS_URL: 'redis://127.0.0.1:6390',
      REALTIME_DEBUG: 'true',
    });
    expect(sources).toMatchObject({
      default: 'default',
      'servers.main.host': 'env (REALTIME_HOST)',
      'servers.main.port': 'file',
      'servers.main.path': 'default',
      'applications.0.id': 'file',
      'applications.0.allowed_origins': 'file',
      'applications.0.max_connections': 'default',
      'applications.0.webhooks': 'default',
      'scaling.enabled': 'env (REDIS_URL)',
      'scaling.server.url': 'env (REDIS_URL)',
      'logging.debug_enabled': 'env (REALTIME_DEBUG)',
      'logging.scopes["socket.connection"]': 'file',
      'metrics.host': 'default',
    });
  });

  it('gives the app of REALTIME_APP_* to the environment, not the file apps it replaced', async () => {
    const sources = await sourcesOf('applications:\n  - { id: 1, key: k, secret: s, max_connections: 5 }\n', { REALTIME_APP_ID: '2', REALTIME_APP_KEY: 'k2', REALTIME_APP_SECRET: 's2' });
    expect(sources).toMatchObject({ 'applications.0.id': 'env (REALTIME_APP_ID)', 'applications.0.secret': 'env (REALTIME_APP_SECRET)', 'applications.0.max_connections': 'default' });
  });

  it('marks the app generated when none is configured', async () => {
    const sources = await sourcesOf(undefined, {});
    expect(sources).toMatchObject({ 'applications.0.id': 'generated', 'applications.0.key': 'generated', 'applications.0.secret': 'generated', 'applications.0.name': 'generated', 'applications.0.max_connections': 'default' });
  });
});
