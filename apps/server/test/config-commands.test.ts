import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse as parseYaml } from 'yaml';
import { afterAll, describe, expect, it } from 'vitest';
import { makeTestCertificate } from './helpers/tls-certificate.js';

/** The package's bin, as users run it (it imports the built dist/bin.js). */
const bin = fileURLToPath(new URL('../bin/realtime-server.js', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'realtime-config-commands-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function file(name: string, content: string): string {
  const path = join(dir, name);
  writeFileSync(path, content);
  return path;
}

/** Variables that change the configuration: left out (an empty REALTIME_PATH is an override), so that each test says which it sets. */
const configVariables = new Set(['REALTIME_CONFIG', 'REALTIME_HOST', 'REALTIME_PORT', 'REALTIME_PATH', 'REALTIME_APP_ID', 'REALTIME_APP_KEY', 'REALTIME_APP_SECRET', 'REDIS_URL', 'REALTIME_DEBUG']);
const baseEnv = Object.fromEntries(Object.entries(process.env).filter(([name]) => !configVariables.has(name)));

function run(args: string[], env: Record<string, string> = {}): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [bin, ...args], { env: { ...baseEnv, REALTIME_RUN_DIR: dir, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.once('error', reject);
    child.once('exit', (code) => resolve({ code, stdout, stderr }));
  });
}

const appSecret = 'Zq7wK2pX9vB4mN1s';
const redisPassword = 'hP4vR8sL2nQ6wE0t';
const goodYaml = `# yaml-language-server: $schema=../config.schema.json
servers:
  main: { port: 6001 }
applications:
  - id: 1
    key: app-key
    secret: ${appSecret}
    webhooks:
      - url: https://hooks.example/in?token=${redisPassword}-t
        headers: { Authorization: Bearer ${appSecret}-h }
redis:
  password: ${redisPassword}
`;

describe('realtime-server config check', () => {
  it('prints one OK line and exits 0 for a good file, with the environment overrides applied', async () => {
    const { code, stdout, stderr } = await run(['config', 'check', '--config', file('good.yaml', goodYaml)], { REALTIME_PORT: '7001' });
    expect({ code, stderr }).toEqual({ code: 0, stderr: '' });
    expect(stdout).toMatch(/^configuration OK \(.*good\.yaml\): server main on 0\.0\.0\.0:7001; 1 application\(s\); scaling off; overridden by REALTIME_PORT\n$/);
  });

  it('takes the file from REALTIME_CONFIG, and accepts a JSON file with a $schema key', async () => {
    const json = file('good.json', JSON.stringify({ $schema: './node_modules/@org/realtime-server/config.schema.json', applications: [{ id: '1', key: 'k', secret: 's' }] }));
    const { code, stdout } = await run(['config', 'check'], { REALTIME_CONFIG: json });
    expect(code).toBe(0);
    expect(stdout).toContain('good.json');
  });

  it('prints start-up\'s own error on stderr and exits 1, for a bad file and for a bad override, never a secret', async () => {
    const broken = file('broken.yaml', `applications:\n  - id: 1\n    key: app-key\n    secret: "${appSecret}\n`);
    const check = await run(['config', 'check', '--config', broken]);
    const start = await run(['server', '--config', broken, '--host', '127.0.0.1', '--port', '0']);
    expect(check.code).toBe(1);
    expect(check.stdout).toBe('');
    expect(check.stderr).toMatch(/is not valid YAML at line \d+, column \d+/);
    expect(check.stderr).not.toContain(appSecret);
    expect({ code: start.code, stderr: start.stderr }).toEqual({ code: check.code, stderr: check.stderr });

    const badEnv = await run(['config', 'check', '--config', file('env.yaml', goodYaml)], { REALTIME_PORT: 'http' });
    expect(badEnv.code).toBe(1);
    expect(badEnv.stderr).toBe('invalid configuration:\n  - servers.main.port: Invalid input: expected number, received NaN (set by REALTIME_PORT)\n');
  });

  it('reads the TLS files and decrypts the key as start-up does, and says which is wrong without the passphrase', async () => {
    const passphrase = 'tls-Passphrase-9f3';
    const certificate = makeTestCertificate();
    const key = file('key.pem', certificate.encryptedKey(passphrase));
    const cert = file('cert.pem', certificate.cert);
    const tlsConfig = (tls: object) => file('tls.json', JSON.stringify({ servers: { main: { options: { tls } } } }));
    const good = await run(['config', 'check', '--config', tlsConfig({ cert, key, passphrase })]);
    expect(good.code).toBe(0);
    expect(good.stdout).toContain('with TLS (files read, key usable)');
    const wrong = await run(['config', 'check', '--config', tlsConfig({ cert, key, passphrase: 'not-the-passphrase' })]);
    expect(wrong.code).toBe(1);
    expect(wrong.stderr).toContain(`servers.*.options.tls.key: ${key} is not a usable private key (wrong passphrase?)`);
    expect(wrong.stderr).not.toContain('not-the-passphrase');
    const missing = await run(['config', 'check', '--config', tlsConfig({ cert: join(dir, 'missing.pem'), key })]);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain(`servers.*.options.tls.cert: cannot read ${join(dir, 'missing.pem')}`);

    // What start-up refuses once uWS builds the TLS context: not a certificate, or one for another key, or a bad CA file.
    const otherKey = file('other.pem', makeTestCertificate().key);
    const cases = [
      [{ cert: key, key, passphrase }, `servers.*.options.tls.cert: ${key} is not a PEM certificate`],
      [{ cert, key: otherKey }, `servers.*.options.tls.cert: ${cert} does not go with the key ${otherKey}`],
      [{ cert, key, passphrase, ca: key }, `servers.*.options.tls.ca: ${key} is not a PEM certificate`],
    ] as const;
    for (const [tls, message] of cases) {
      const config = tlsConfig(tls);
      const check = await run(['config', 'check', '--config', config]);
      expect(check.code).toBe(1);
      expect(check.stderr).toContain(message);
      expect(check.stderr).not.toContain(passphrase);
      const start = await run(['server', '--config', config, '--host', '127.0.0.1', '--port', '0']);
      expect({ code: start.code, stderr: start.stderr }).toEqual({ code: check.code, stderr: check.stderr });
    }
    // Nine processes of the daemon, started one after another.
  }, 60_000);

  it('exits 64 with the usage on a bad command line', async () => {
    const { code, stderr } = await run(['config', 'check', '--format', 'json']);
    expect(code).toBe(64);
    expect(stderr).toMatch(/^unknown option --format for config check\n\nUsage:/);
  });
});

describe('realtime-server config print', () => {
  it('prints the effective configuration as JSON, every secret masked, with the source of each value', async () => {
    const { code, stdout, stderr } = await run(['config', 'print', '--config', file('print.yaml', goodYaml), '--format', 'json'], { REDIS_URL: `redis://:${redisPassword}x@127.0.0.1:6390/0`, REALTIME_HOST: '127.0.0.1' });
    expect({ code, stderr }).toEqual({ code: 0, stderr: '' });
    for (const secret of [appSecret, redisPassword]) expect(stdout).not.toContain(secret);
    type Printed = { file: string; config: { servers: Record<string, object>; applications: { webhooks: object[] }[]; redis: object; scaling: object }; sources: Record<string, string> };
    const printed = JSON.parse(stdout) as Printed;
    expect(printed.file).toMatch(/print\.yaml$/);
    expect(printed.config.servers['main']).toMatchObject({ host: '127.0.0.1', port: 6001, path: '' });
    expect(printed.config.applications[0]).toMatchObject({ id: '1', key: 'app-key', secret: '[redacted]', max_connections: 100, enable_subscription_count: false, subscription_count_interval_ms: 1000 });
    expect(printed.config.applications[0]!.webhooks[0]).toEqual({ url: 'https://hooks.example/[redacted]?token=[redacted]', headers: { Authorization: '[redacted]' } });
    expect(printed.config.redis).toMatchObject({ host: '127.0.0.1', password: '[redacted]' });
    expect(printed.config.scaling).toMatchObject({ enabled: true, server: { url: 'redis://:[redacted]@127.0.0.1:6390/0' } });
    expect(printed.sources).toMatchObject({
      default: 'default',
      'servers.main.host': 'env (REALTIME_HOST)',
      'servers.main.port': 'file',
      'servers.main.path': 'default',
      'applications.0.key': 'file',
      'applications.0.secret': 'file',
      'applications.0.max_connections': 'default',
      'applications.0.webhooks.0.headers.Authorization': 'file',
      'redis.password': 'file',
      'scaling.enabled': 'env (REDIS_URL)',
      'scaling.server.url': 'env (REDIS_URL)',
      'metrics.enabled': 'default',
    });
  });

  it('prints YAML with the source after each value, and marks the generated app (its secret masked) when none is configured', async () => {
    const { code, stdout } = await run(['config', 'print']);
    expect(code).toBe(0);
    expect(stdout).toContain('# realtime-server: effective configuration (no config file).');
    expect(stdout).toMatch(/^ {4}secret: "\[redacted\]" # generated$/m);
    expect(stdout).toMatch(/^ {4}port: 8080 # default$/m);
    const config = parseYaml(stdout) as { applications: { id: string; key: string; secret: string }[] };
    expect(config.applications).toHaveLength(1);
    expect(config.applications[0]!.secret).toBe('[redacted]');
  });

  it('fails as config check does, with the same message', async () => {
    const bad = file('bad.json', JSON.stringify({ applications: [{ id: '1', key: 'k', secret: appSecret, max_connections: 0 }] }));
    const [print, check] = await Promise.all([run(['config', 'print', '--config', bad]), run(['config', 'check', '--config', bad])]);
    expect(print).toEqual({ code: 1, stdout: '', stderr: check.stderr });
    expect(print.stderr).toContain('applications.0.max_connections: Too small');
  });
});
