import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { Agent, get } from 'node:https';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import PusherServer from 'pusher';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { daemonConfig, testApp } from './helpers/apps.js';
import { startDaemon, type RunningDaemon } from './helpers/daemon.js';

const run = promisify(execFile);
const app = testApp('tls');
const dir = mkdtempSync(join(tmpdir(), 'realtime-tls-'));
const certFile = join(dir, 'cert.pem');
const keyFile = join(dir, 'key.pem');
let ca: string;
let daemon: RunningDaemon;

/** A self-signed certificate for 127.0.0.1, made now so nothing secret lives in the repository. */
async function makeCertificate(): Promise<void> {
  await run('openssl', [
    'req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-sha256', '-days', '1',
    '-subj', '/CN=127.0.0.1', '-addext', 'subjectAltName=IP:127.0.0.1',
    '-keyout', keyFile, '-out', certFile,
  ]);
  ca = readFileSync(certFile, 'utf8');
}

const tlsConfig = (tls: Record<string, string>) => daemonConfig([app], { servers: { main: { options: { tls } } } });

beforeAll(async () => {
  await makeCertificate();
  daemon = await startDaemon(tlsConfig({ cert: certFile, key: keyFile }));
});

const children = new Set<ChildProcess>();
afterAll(() => {
  for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  rmSync(dir, { recursive: true, force: true });
});

/**
 * pusher-js runs in a child process started with NODE_EXTRA_CA_CERTS, the way
 * an operator makes Node trust a private CA: its WebSocket client takes no
 * per-connection CA. It prints "subscribed", then each `update` event's data.
 */
function wssClient(port: number) {
  const pusherJs = createRequire(import.meta.url).resolve('pusher-js');
  const script = `
    const Pusher = require(${JSON.stringify(pusherJs)});
    const client = new Pusher(${JSON.stringify(app.key)}, {
      wsHost: '127.0.0.1', wssPort: ${port}, forceTLS: true, enabledTransports: ['ws'], cluster: 'local', disableStats: true,
    });
    client.connection.bind('error', (e) => console.log('error ' + JSON.stringify(e && e.error && e.error.type)));
    const channel = client.subscribe('news');
    channel.bind('pusher:subscription_succeeded', () => console.log('subscribed ' + client.connection.socket_id));
    channel.bind('update', (data) => { console.log('update ' + JSON.stringify(data)); client.disconnect(); process.exit(0); });
  `;
  const child = spawn(process.execPath, ['-e', script], { env: { ...process.env, NODE_EXTRA_CA_CERTS: certFile }, stdio: ['ignore', 'pipe', 'pipe'] });
  const lines: string[] = [];
  const waiters = new Set<() => void>();
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
    lines.push(...chunk.split('\n').filter(Boolean));
    for (const waiter of waiters) waiter();
  });
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => lines.push(chunk));
  const waitForLine = (prefix: string, timeoutMs = 10_000) =>
    new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no "${prefix}" line from the wss client; output: ${lines.join('\n')}`)), timeoutMs);
      const check = () => {
        const line = lines.find((l) => l.startsWith(prefix));
        if (!line) return;
        clearTimeout(timer);
        waiters.delete(check);
        resolve(line);
      };
      waiters.add(check);
      check();
    });
  children.add(child);
  return { waitForLine };
}

describe('TLS', () => {
  it('serves pusher-js over wss:// and the HTTP API over https:// with a certificate made at test time', async () => {
    const client = wssClient(daemon.port);
    await client.waitForLine('subscribed ');

    const sdk = new PusherServer({
      appId: app.id, key: app.key, secret: app.secret,
      host: '127.0.0.1', port: String(daemon.port), useTLS: true,
      agent: new Agent({ ca }),
    });
    const response = await sdk.trigger('news', 'update', { over: 'tls' });
    expect(response.status).toBe(200);
    expect(await client.waitForLine('update ')).toBe('update {"over":"tls"}');
  });

  it('answers /up over https and refuses a client that does not trust the certificate', async () => {
    const status = (agent: Agent) =>
      new Promise<number | string>((resolve) => {
        get({ host: '127.0.0.1', port: daemon.port, path: '/up', agent }, (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        }).on('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? 'error'));
      });
    expect(await status(new Agent({ ca }))).toBe(200);
    expect(await status(new Agent())).toBe('DEPTH_ZERO_SELF_SIGNED_CERT');
  });

  it('refuses to start with a clear error when the key file is missing', async () => {
    const missing = join(dir, 'missing-key.pem');
    await expect(startDaemon(tlsConfig({ cert: certFile, key: missing }))).rejects.toThrow(
      `servers.*.options.tls.key: cannot read ${missing}`,
    );
  });

  it('refuses to start with a clear error when the key is not a usable private key', async () => {
    const garbage = join(dir, 'garbage-key.pem');
    writeFileSync(garbage, '-----BEGIN PRIVATE KEY-----\nbm90IGEga2V5\n-----END PRIVATE KEY-----\n');
    await expect(startDaemon(tlsConfig({ cert: certFile, key: garbage }))).rejects.toThrow(
      `servers.*.options.tls.key: ${garbage} is not a usable private key`,
    );
  });
});
