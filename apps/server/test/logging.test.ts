import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startWebhookReceiver } from '@org/webhooks/testing';
import { daemonConfig, testApp } from './helpers/apps.js';
import { backend, connected, pusherClient, subscribed } from './helpers/clients.js';
import { startDaemon, type RunningDaemon } from './helpers/daemon.js';
import { signedFetch, signedQuery } from './helpers/signed-request.js';
import { sleep, waitFor } from './helpers/wait.js';

const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

/** The daemon's JSON log lines so far. */
function jsonLines(daemon: RunningDaemon): Record<string, unknown>[] {
  return daemon.output.filter((line) => line.startsWith('{')).map((line) => JSON.parse(line) as Record<string, unknown>);
}

describe('logging scopes', () => {
  it('logs nothing for a scope set false, logs a scope set true, and every line carries its scope', async () => {
    const app = testApp('log-scopes');
    const daemon = await startDaemon(
      daemonConfig([app], { logging: { debug_enabled: true, scopes: { 'command.server.start': false, 'socket.connection': true } } }),
    );
    const client = pusherClient(daemon, app);
    const socketId = await connected(client);
    await daemon.waitForLog((line) => line['scope'] === 'socket.connection' && line['socketId'] === socketId);
    await subscribed(client, 'news');
    await sleep(100);

    const lines = jsonLines(daemon);
    expect(lines.every((line) => typeof line['scope'] === 'string')).toBe(true);
    const scopes = new Set(lines.map((line) => line['scope']));
    expect(scopes.has('socket.server')).toBe(true);
    expect(scopes.has('command.server.start')).toBe(false);
    // socket.channel is off by default even with debug on.
    expect(scopes.has('socket.channel')).toBe(false);
  });

  it('keeps the default scopes: command.server.start on, socket.connection off', async () => {
    const app = testApp('log-defaults');
    const daemon = await startDaemon(daemonConfig([app], { logging: { debug_enabled: true } }));
    await daemon.waitForLog((line) => line['scope'] === 'command.server.start' && line['msg'] === 'server started');
    await connected(pusherClient(daemon, app));
    await sleep(100);
    expect(jsonLines(daemon).some((line) => line['scope'] === 'socket.connection')).toBe(false);
  });

  it('writes debug lines only for the app with enable_debug when debug_enabled is off', async () => {
    const loud = testApp('log-loud', { enable_debug: true });
    const quiet = testApp('log-quiet');
    const daemon = await startDaemon(daemonConfig([loud, quiet], { logging: { scopes: { 'socket.connection': true } } }));
    const loudId = await connected(pusherClient(daemon, loud));
    const quietId = await connected(pusherClient(daemon, quiet));
    await daemon.waitForLog((line) => line['socketId'] === loudId && line['level'] === 20);
    await sleep(100);
    expect(jsonLines(daemon).some((line) => line['socketId'] === quietId)).toBe(false);
    expect(jsonLines(daemon).filter((line) => line['level'] === 20).every((line) => line['app'] === loud.id)).toBe(true);
  });

  it('also writes the log to <log_path>/<log_file>.log', async () => {
    const logPath = join(mkdtempSync(join(tmpdir(), 'realtime-logs-')), 'nested');
    dirs.push(logPath);
    const app = testApp('log-file');
    const daemon = await startDaemon(daemonConfig([app], { logging: { log_path: logPath, log_file: 'daemon' } }));
    const file = join(logPath, 'daemon.log');
    const listening = await waitFor(() => {
      if (!existsSync(file)) return undefined;
      return readFileSync(file, 'utf8')
        .split('\n')
        .filter(Boolean)
        .map((line) => JSON.parse(line) as Record<string, unknown>)
        .find((line) => line['msg'] === 'listening');
    }, 'the listening line in the log file');
    expect(listening).toMatchObject({ scope: 'socket.server', port: daemon.port });
  });
});

describe('secrets in logs', () => {
  it('never writes an app secret, a signature or a webhook token, even with every scope at debug', async () => {
    const app = testApp('log-secrets', { enable_debug: true });
    const failing = await startWebhookReceiver(app, () => 500);
    const logPath = mkdtempSync(join(tmpdir(), 'realtime-logs-'));
    dirs.push(logPath);
    const urlToken = 'url-token-6f1c2a';
    const headerToken = 'header-token-93be77';
    const daemon = await startDaemon(
      daemonConfig(
        [{ ...app, webhooks: [{ url: `${failing.url}?token=${urlToken}`, headers: { Authorization: `Bearer ${headerToken}` } }] }],
        {
          // A short grace period: the stop below would otherwise keep retrying the failing webhook for 5 s.
          servers: { main: { shutdown_grace_period: 1 } },
          logging: {
            debug_enabled: true,
            log_path: logPath,
            scopes: Object.fromEntries(['socket.connection', 'socket.channel', 'socket.handler', 'socket.controller', 'webhooks'].map((s) => [s, true])),
          },
        },
      ),
    );

    const client = pusherClient(daemon, app);
    const socketId = await connected(client);
    await subscribed(client, 'private-ledger');
    const channelAuth = backend(daemon, app).authorizeChannel(socketId, 'private-ledger').auth;
    // A subscription signed with the wrong secret, and an HTTP call signed with it: both refused.
    const forger = pusherClient(daemon, app, { signWithSecret: 'not-the-secret' });
    await connected(forger);
    forger.subscribe('private-ledger');
    const body = JSON.stringify({ name: 'e', channels: ['x'], data: '{}' });
    const forged = { method: 'POST', path: `/apps/${app.id}/events`, body, secret: 'not-the-secret' } as const;
    expect((await signedFetch(daemon.httpUrl, app, forged)).status).toBe(401);
    const genuine = { method: 'GET', path: `/apps/${app.id}/channels` } as const;
    expect((await signedFetch(daemon.httpUrl, app, genuine)).status).toBe(200);
    const requestSignatures = [forged, genuine].map((options) => new URLSearchParams(signedQuery(app, options)).get('auth_signature')!);
    await backend(daemon, app).trigger('private-ledger', 'entry', { amount: 1 });

    // The webhook fails, so the daemon logs the failure and its retry.
    await daemon.waitForLog((line) => line['msg'] === 'webhook delivery failed; will retry', 10_000);
    await daemon.stop();
    await failing.close();

    const stdout = daemon.output.join('\n');
    const file = readFileSync(join(logPath, 'realtime.log'), 'utf8');
    const signatures = failing.received.map((request) => String(request.headers['x-pusher-signature']));
    expect(signatures.length).toBeGreaterThan(0);
    expect(stdout).toContain(failing.url); // the target is logged, without its query
    for (const secret of [app.secret, urlToken, headerToken, channelAuth.split(':')[1]!, ...signatures, ...requestSignatures]) {
      expect(stdout).not.toContain(secret);
      expect(file).not.toContain(secret);
    }
  });
});
