import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './load-config.js';
import { redactSecrets, secretsInText, secretsInValue } from './safe-config-errors.js';
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

  it('refuses a default naming no server, and servers of the wrong type, instead of starting a plain server on 0.0.0.0:8080', async () => {
    const typo = file('typo.json', JSON.stringify({ default: 'mian', servers: { main: { port: 16201 } } }));
    for (const env of [{}, { REALTIME_PORT: '7000' }]) {
      await expect(loadConfig({ file: typo, env })).rejects.toThrow('default: no server named "mian" in servers');
    }
    for (const servers of ['oops', null, { main: [16200] }]) {
      const path = file('servers.json', JSON.stringify({ servers }));
      for (const env of [{}, { REALTIME_HOST: '127.0.0.1' }]) await expect(loadConfig({ file: path, env })).rejects.toThrow(/invalid configuration:\n {2}- servers/);
    }
  });

  it('makes the default server entry for an environment override only where the file has none', async () => {
    const bare = file('bare.json', JSON.stringify({ default: 'edge' }));
    const { config } = await loadConfig({ file: bare, env: { REALTIME_PORT: '7001' } });
    expect(config.servers['edge']).toMatchObject({ port: 7001, host: '0.0.0.0' });
  });

  it('reads a JSON file that starts with a byte order mark', async () => {
    const path = file('bom.json', `\uFEFF${JSON.stringify({ servers: { main: { port: 7002 } } })}`);
    expect((await loadConfig({ file: path, env: {} })).config.servers['main']?.port).toBe(7002);
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

describe('configuration errors never quote a secret', () => {
  const secret = 'Zq7wK2pX9vB4mN1s';
  const messageOf = async (name: string, content: string, env: NodeJS.ProcessEnv = {}) => {
    const error = await loadConfig({ file: file(name, content), env }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConfigError);
    return (error as Error).message;
  };

  it('names line, column and key path of a YAML syntax error, without the code frame', async () => {
    const message = await messageOf('s.yaml', `applications:\n  - id: 1\n    key: k\n    secret: ${secret}: oops\n`);
    expect(message).not.toContain(secret);
    expect(message).toContain('is not valid YAML at line 4, column');
    // The rest of that line was read as a nested key: shown as `*`, as text that may be a value.
    expect(message).toContain('(in applications.0.secret.*)');
    expect(message).toContain('quote values that contain ": "');
  });

  it('names the position of a JSON syntax error, without the snippet V8 puts in its message', async () => {
    const message = await messageOf('s.json', `{"applications": [{"id": "1", "key": "k", "secret": ${secret}}]}`);
    expect(message).not.toContain(secret);
    expect(message).toMatch(/is not valid JSON at line 1, column 53 \(in applications\.0\.secret\): expected a value/);
  });

  it('does not quote an alias name, a tag or an unknown key made of a secret', async () => {
    expect(await messageOf('a.yaml', `applications:\n  - { id: 1, key: k, secret: *${secret} }\n`)).not.toContain(secret);
    const tagged = await messageOf('t.yaml', `applications:\n  - { id: 1, key: k, secret: !${secret} }\nnope: 1\n`);
    expect(tagged).not.toContain(secret);
    expect(tagged).toContain('Unrecognized key: "nope"');
    const asKey = await messageOf('k.yaml', `applications:\n  - id: 1\n    key: k\n    secret:\n    ${secret}: x\n`);
    expect(asKey).not.toContain(secret);
    expect(asKey).toContain('applications.0: Unrecognized key: "*"');
  });

  it('names the environment variable of an invalid override, never its value', async () => {
    const message = await messageOf('e.json', '{}', { REALTIME_APP_ID: '1', REALTIME_APP_SECRET: secret, REALTIME_PORT: 'x' });
    expect(message).not.toContain(secret);
    expect(message).toContain('applications.0.key: Invalid input: expected string, received undefined (set by REALTIME_APP_KEY)');
    expect(message).toContain('servers.main.port: Invalid input: expected number, received NaN (set by REALTIME_PORT)');
  });

  it('as a last guard, knows where secrets are in a document, parsed or not, and cuts them out of a message', () => {
    const text = [
      'applications:',
      `  - { id: 1, key: public-key, secret: "${secret}", max_connections: 5 }`,
      `redis: { url: "redis://user:p4ssw0rd-x@127.0.0.1:6379" }`,
      'webhooks:',
      `  - { url: "https://h.example/in?token=t0k3n-abc", headers: { X-Custom: "${secret}-h" } }`,
    ].join('\n');
    const fromText = secretsInText(text);
    expect([...fromText]).toEqual(expect.arrayContaining([secret, 'p4ssw0rd-x', 't0k3n-abc']));
    const fromValue = secretsInValue({ applications: [{ key: 'public-key', secret }], webhooks: [{ url: 'http://h/?sig=s1gnature', headers: { 'X-Custom': `${secret}-h` } }] });
    expect([...fromValue].sort()).toEqual([secret, `${secret}-h`, 's1gnature'].sort());
    expect(redactSecrets(`a ${secret}-h b ${secret} c max_connections: 5`, fromValue)).toBe('a [redacted] b [redacted] c max_connections: 5');
    // The app key is public: it is not a secret to cut.
    expect(fromValue.has('public-key')).toBe(false);
  });
});

