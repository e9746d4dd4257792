import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './load-config.js';
import { toApp } from './to-apps.js';

function file(name: string, content: string): string {
  const path = join(mkdtempSync(join(tmpdir(), 'realtime-config-')), name);
  writeFileSync(path, content);
  return path;
}

describe('loadConfig', () => {
  it('starts single-node on 0.0.0.0:8080 with one generated app when nothing is configured', async () => {
    const { config, generatedApp } = await loadConfig({ env: {} });
    expect(generatedApp).toBe(true);
    expect(config.servers['main']).toMatchObject({ host: '0.0.0.0', port: 8080 });
    expect(config.applications).toHaveLength(1);
    expect(config.applications[0]).toMatchObject({ max_connections: 100, enable_client_messages: true, allowed_origins: ['*'], max_message_size: 10_000 });
    expect(config.scaling.enabled).toBe(false);
  });

  it('reads YAML with the original keys and applies environment and CLI overrides', async () => {
    const path = file('realtime.yaml', 'applications:\n  - { id: 7, key: k, secret: s, activity_timeout: 12 }\nservers:\n  main: { port: 9000, ping_interval: 40 }\n');
    const { config } = await loadConfig({ file: path, env: { REALTIME_HOST: '127.0.0.1', REDIS_URL: 'redis://127.0.0.1:6390' }, port: 9100 });
    expect(config.servers['main']).toMatchObject({ host: '127.0.0.1', port: 9100, ping_interval: 40 });
    expect(config.applications[0]?.id).toBe('7');
    expect(config.scaling).toMatchObject({ enabled: true, server: { url: 'redis://127.0.0.1:6390' } });
    const app = toApp(config.applications[0]!, config.servers['main']!);
    expect(app.activityTimeout).toBe(12); // the application wins
    expect(app.pingInterval).toBe(40); // then the server
  });

  it('names every invalid key and what was expected', async () => {
    const path = file('bad.json', JSON.stringify({ applications: [{ id: '1', key: 'k', max_connections: -1 }], servers: { main: { port: 'x' } }, logging: { nope: 1 } }));
    const error = await loadConfig({ file: path, env: {} }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConfigError);
    const message = (error as Error).message;
    expect(message).toContain('applications.0.secret');
    expect(message).toContain('applications.0.max_connections');
    expect(message).toContain('servers.main.port');
    expect(message).toMatch(/logging: .*nope/);
  });

  it('rejects unreadable files, bad JSON and duplicate app keys', async () => {
    await expect(loadConfig({ file: '/nonexistent/realtime.json', env: {} })).rejects.toThrow('cannot read config file');
    await expect(loadConfig({ file: file('broken.json', '{'), env: {} })).rejects.toThrow('is not valid JSON');
    const duplicate = file('dup.json', JSON.stringify({ applications: [{ id: '1', key: 'k', secret: 's' }, { id: '2', key: 'k', secret: 's' }] }));
    await expect(loadConfig({ file: duplicate, env: {} })).rejects.toThrow('applications: every key must be unique');
  });
});
