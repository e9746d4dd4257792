import { execFile, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { daemonConfig, testApp } from './helpers/apps.js';
import { startDaemon, type RunningDaemon } from './helpers/daemon.js';

/*
 * `pusher-conformance --tls` against the daemon serving wss:// and https:// with a certificate the
 * kit's process trusts through NODE_EXTRA_CA_CERTS, as a user would point it at a server with a
 * private CA: pusher-js, the SDK, raw sockets and the signed requests all verify the certificate.
 */

const app = testApp('conformance-tls');
const dir = mkdtempSync(join(tmpdir(), 'conformance-tls-'));
const certFile = join(dir, 'cert.pem');
const keyFile = join(dir, 'key.pem');
const bin = join(dirname(createRequire(import.meta.url).resolve('@org/pusher-conformance/package.json')), 'bin', 'pusher-conformance.js');
let daemon: RunningDaemon;

beforeAll(async () => {
  await promisify(execFile)('openssl', [
    'req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-sha256', '-days', '1',
    '-subj', '/CN=127.0.0.1', '-addext', 'subjectAltName=IP:127.0.0.1', '-keyout', keyFile, '-out', certFile,
  ]);
  daemon = await startDaemon(daemonConfig([app], { servers: { main: { options: { tls: { cert: certFile, key: keyFile } } } } }));
});

afterAll(() => rmSync(dir, { recursive: true, force: true }));

function runKit(args: string[], env: NodeJS.ProcessEnv): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [bin, ...args], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk));
    child.once('exit', (code) => resolve({ code, output }));
  });
}

const target = () => ['--tls', '--port', String(daemon.port), '--app-id', app.id, '--app-key', app.key, '--app-secret', app.secret];

describe('pusher-conformance --tls', () => {
  it('passes over wss:// and https:// with the server\'s certificate trusted', async () => {
    const { code, output } = await runKit([...target(), '--only', 'connection,public-channels,private-channels,presence-channels,encrypted-channels,users,limits'], {
      ...process.env,
      NODE_EXTRA_CA_CERTS: certFile,
    });
    expect(code, output).toBe(0);
    expect(output).toMatch(/^(\d+)\/\1 passed \(100 %\), 0 failed, 0 skipped in [\d.]+ s: conforms$/m);
  }, 120_000);

  it('fails, on time, when the certificate is not trusted', async () => {
    const { code, output } = await runKit([...target(), '--only', 'connection.established,http-api.bad-signature', '--case-timeout', '3'], { ...process.env, NODE_EXTRA_CA_CERTS: '' });
    expect(code, output).toBe(1);
    expect(output).toMatch(/^FAIL .*connection\.established/m);
    expect(output).toMatch(/self[- ]signed certificate/i);
  }, 60_000);
});
