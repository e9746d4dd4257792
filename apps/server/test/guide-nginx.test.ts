import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { Agent, request } from 'node:https';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import PusherServer from 'pusher';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { daemonConfig, testApp } from './helpers/apps.js';
import { freePort, startDaemon, type RunningDaemon } from './helpers/daemon.js';
import { findNginx, startNginx } from './helpers/guides/nginx.js';
import { readmeBlock, substituteExactlyOnce } from './helpers/guides/readme-blocks.js';
import { runNode, writeSnippetFiles } from './helpers/guides/snippet-files.js';
import { RawSocket } from './helpers/raw-socket.js';
import { sleep } from './helpers/wait.js';

/**
 * The README's "TLS behind a reverse proxy" nginx block, run by real nginx on
 * loopback in front of a real daemon. In CI a missing nginx fails this file;
 * elsewhere its tests are skipped with a message.
 */
const nginxBinary = findNginx();
if (!nginxBinary && process.env['CI'] === 'true') {
  throw new Error('nginx is not installed, but CI=true requires the nginx guide test to run (.ci/run installs Debian\'s nginx package)');
}
if (!nginxBinary) console.warn('[server] nginx is not installed (apt-get install nginx): the nginx guide test is skipped outside CI');

const run = promisify(execFile);
// Quick keepalive on the app, so the timeout checks take seconds: the daemon pings after 2 s of silence, then waits 2 s for the pong.
const app = testApp('guide-nginx', { activity_timeout: 2, ping_interval: 2 });
const originApp = testApp('guide-nginx-origin', { allowed_origins: ['app.example.com'] });
const dir = mkdtempSync(join(tmpdir(), 'realtime-guide-nginx-'));
const certFile = join(dir, 'cert.pem');
const keyFile = join(dir, 'key.pem');
let ca: string;
let daemon: RunningDaemon;
/** nginx per the README: timeouts above activity_timeout + ping_interval (4 s here). */
let advisedPort: number;
/** The same block with timeouts shorter than activity_timeout. */
let tooShortPort: number;

afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The README block; only the listen address, the daemon's port, the certificate files and the timeouts change. */
function nginxConf(listenPort: number, timeout: string): string {
  return substituteExactlyOnce(readmeBlock('nginx-conf'), [
    ['listen 443 ssl;', `listen 127.0.0.1:${listenPort} ssl;`],
    ['proxy_pass http://127.0.0.1:6001;', `proxy_pass http://127.0.0.1:${daemon.port};`],
    ['ssl_certificate     /etc/ssl/realtime.example.com.pem;', `ssl_certificate     ${certFile};`],
    ['ssl_certificate_key /etc/ssl/realtime.example.com.key;', `ssl_certificate_key ${keyFile};`],
    ['proxy_read_timeout 120s;', `proxy_read_timeout ${timeout};`],
    ['proxy_send_timeout 120s;', `proxy_send_timeout ${timeout};`],
  ]);
}

beforeAll(async () => {
  if (!nginxBinary) return;
  await run('openssl', [
    'req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-sha256', '-days', '1',
    '-subj', '/CN=127.0.0.1', '-addext', 'subjectAltName=IP:127.0.0.1',
    '-keyout', keyFile, '-out', certFile,
  ]);
  ca = readFileSync(certFile, 'utf8');
  daemon = await startDaemon(daemonConfig([app, originApp]));
  [advisedPort, tooShortPort] = [await freePort(), await freePort()];
  await Promise.all([startNginx(nginxBinary, nginxConf(advisedPort, '5s'), advisedPort), startNginx(nginxBinary, nginxConf(tooShortPort, '1s'), tooShortPort)]);
});

/** A raw wss client through nginx that answers the daemon's pings, as pusher-js does. */
function rawThroughProxy(port: number, key: string, origin?: string): Promise<RawSocket> {
  const ws = new WebSocket(`wss://127.0.0.1:${port}/app/${key}?protocol=7&client=js&version=8.4.0`, { ca, ...(origin ? { origin } : {}) });
  const socket = new RawSocket(ws);
  ws.on('message', (data) => {
    if (String(data).includes('"pusher:ping"')) ws.send(JSON.stringify({ event: 'pusher:pong', data: {} }));
  });
  return new Promise((resolve, reject) => {
    ws.once('open', () => resolve(socket));
    ws.once('error', reject);
  });
}

/**
 * pusher-js in a child process started with NODE_EXTRA_CA_CERTS (its
 * WebSocket takes no per-connection CA), `forceTLS: true` to nginx. Its
 * private-channel auth is signed like an app's auth endpoint would sign it.
 */
function pusherJsThroughProxy(port: number) {
  const pusherJs = createRequire(import.meta.url).resolve('pusher-js');
  const script = `
    const { createHmac } = require('node:crypto');
    const Pusher = require(${JSON.stringify(pusherJs)});
    const client = new Pusher(${JSON.stringify(app.key)}, {
      cluster: 'local', wsHost: '127.0.0.1', wssPort: ${port}, forceTLS: true, enabledTransports: ['ws', 'wss'], disableStats: true,
      channelAuthorization: { endpoint: '/broadcasting/auth', transport: 'ajax', customHandler: ({ socketId, channelName }, callback) =>
        callback(null, { auth: ${JSON.stringify(app.key)} + ':' + createHmac('sha256', ${JSON.stringify(app.secret)}).update(socketId + ':' + channelName).digest('hex') }) },
    });
    client.connection.bind('error', (e) => console.log('error ' + JSON.stringify(e && e.error)));
    const channel = client.subscribe('private-orders.1');
    channel.bind('pusher:subscription_succeeded', () => console.log('subscribed ' + client.connection.socket_id));
    channel.bind('pusher:subscription_error', (e) => console.log('refused ' + JSON.stringify(e)));
    channel.bind('order.shipped', (data) => { console.log('event ' + JSON.stringify(data)); client.disconnect(); process.exit(0); });
  `;
  const file = join(writeSnippetFiles({ 'client.cjs': script }), 'client.cjs');
  return runNode(file, { NODE_EXTRA_CA_CERTS: certFile });
}

describe.skipIf(!nginxBinary)('guide: TLS behind nginx', () => {
  it('carries pusher-js over wss (private channel auth included) and the pusher SDK over https', async () => {
    const client = pusherJsThroughProxy(advisedPort);
    await client.waitForLine(/^subscribed \d+\.\d+$/);

    const sdk = new PusherServer({
      appId: app.id, key: app.key, secret: app.secret,
      host: '127.0.0.1', port: String(advisedPort), useTLS: true,
      agent: new Agent({ ca }),
    });
    const response = await sdk.trigger('private-orders.1', 'order.shipped', { id: 1, via: 'nginx' });
    expect(response.status).toBe(200);
    expect((await client.waitForLine(/^event .*$/))[0]).toBe('event {"id":1,"via":"nginx"}');
  });

  it("passes the browser's Origin through to allowed_origins unchanged", async () => {
    const allowed = await rawThroughProxy(advisedPort, originApp.key, 'https://app.example.com');
    expect(await allowed.next('pusher:connection_established')).toMatchObject({ event: 'pusher:connection_established' });
    allowed.close();

    const refused = await rawThroughProxy(advisedPort, originApp.key, 'https://evil.example.com');
    expect((await refused.next('pusher:error')).data).toMatchObject({ code: 4009 });
    expect((await refused.closedWithin()).code).toBe(4009);
  });

  it("lets the daemon's own JSON 413 answer a body over max_request_size (client_max_body_size is larger)", async () => {
    const body = JSON.stringify({ name: 'big', channel: 'orders', data: 'x'.repeat(300_000) });
    const answer = await new Promise<{ status: number; type: string; body: string }>((resolve, reject) => {
      const req = request(
        { host: '127.0.0.1', port: advisedPort, method: 'POST', path: `/apps/${app.id}/events`, agent: new Agent({ ca }), headers: { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body) } },
        (res) => {
          let text = '';
          res.setEncoding('utf8').on('data', (chunk: string) => (text += chunk));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, type: String(res.headers['content-type']), body: text }));
        },
      );
      req.on('error', reject);
      req.end(body);
    });
    expect(answer.status).toBe(413);
    expect(answer.type).toContain('application/json');
    expect(JSON.parse(answer.body)).toMatchObject({ code: 413 });
  });

  it('keeps a quiet WebSocket open when the proxy timeouts exceed activity_timeout + ping_interval, and loses it when they do not', async () => {
    const [advised, tooShort] = await Promise.all([rawThroughProxy(advisedPort, app.key), rawThroughProxy(tooShortPort, app.key)]);
    await Promise.all([advised.next('pusher:connection_established'), tooShort.next('pusher:connection_established')]);
    const quietSince = Date.now();

    // nginx drops the connection when the daemon has been silent for 1 s; the daemon's first ping comes after 2 s.
    const dropped = await tooShort.closedWithin(4_000);
    expect(dropped.code).toBe(1006);

    // The advised proxy carries the daemon's pings and the pongs: still open after twice activity_timeout of quiet.
    await sleep(Math.max(0, quietSince + 4_500 - Date.now()));
    expect(advised.isOpen).toBe(true);
    expect(advised.received.filter((frame) => frame.event === 'pusher:ping').length).toBeGreaterThanOrEqual(1);
    advised.close();
  });
});
