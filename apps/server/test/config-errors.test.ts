import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { daemonBin } from './helpers/daemon.js';

const dir = mkdtempSync(join(tmpdir(), 'realtime-config-errors-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Runs `dist/bin.js server --config <file>` and collects what it prints before exiting. */
function serverWith(name: string, content: string, env: Record<string, string> = {}): Promise<{ code: number | null; output: string }> {
  const file = join(dir, name);
  writeFileSync(file, content);
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [daemonBin, 'server', '--config', file, '--host', '127.0.0.1', '--port', '0'], {
      env: { ...process.env, REALTIME_RUN_DIR: dir, REDIS_URL: '', REALTIME_APP_ID: '', REALTIME_APP_KEY: '', REALTIME_APP_SECRET: '', REALTIME_PORT: '', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
    child.once('error', reject);
    child.once('exit', (code) => resolve({ code, output }));
  });
}

describe('the daemon refusing a configuration', () => {
  const secret = 'hP4vR8sL2nQ6wE0t';

  it('prints where a YAML file is broken, never the secret on that line (the yaml package would print the line)', async () => {
    const { code, output } = await serverWith('broken.yaml', `applications:\n  - id: 1\n    key: app-key\n    secret: "${secret}\n    max_connections: 5\n`);
    expect(code).toBe(1);
    expect(output).toMatch(/is not valid YAML at line \d+, column \d+/);
    expect(output).not.toContain(secret);
  });

  it('prints where a JSON file is broken, never the text around it (V8 would quote it)', async () => {
    const { code, output } = await serverWith('broken.json', `{"applications": [{"id": "1", "key": "k", "secret": ${secret}}]}`);
    expect(code).toBe(1);
    expect(output).toContain('is not valid JSON at line 1, column 53 (in applications.0.secret): expected a value');
    expect(output).not.toContain(secret);
  });

  it('names the environment variable behind an invalid override, never the secret it came with', async () => {
    const { code, output } = await serverWith('ok.json', '{}', { REALTIME_APP_ID: '1', REALTIME_APP_SECRET: secret });
    expect(code).toBe(1);
    // REALTIME_APP_KEY is empty here (cleared for the test), which the key may not be.
    expect(output).toMatch(/applications\.0\.key: .* \(set by REALTIME_APP_KEY\)/);
    expect(output).not.toContain(secret);
  });
});
