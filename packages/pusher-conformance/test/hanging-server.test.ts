import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runConformance } from '../src/index.js';

/**
 * A server that accepts every TCP connection and never answers (no WebSocket upgrade, no HTTP
 * response): the kit must fail its cases on time, close what it opened and end.
 */
let server: Server;
let port: number;
const open = new Set<Socket>();

beforeAll(async () => {
  server = createServer((socket) => {
    open.add(socket);
    socket.resume(); // reads (and drops) what the kit sends, so that its close is seen
    socket.on('close', () => open.delete(socket));
    socket.on('error', () => {});
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});

afterAll(async () => {
  for (const socket of open) socket.destroy();
  await new Promise((resolve) => server.close(resolve));
});

const app = { id: 'silent', key: 'silent-key', secret: 'silent-secret' };

async function settled(probe: () => boolean, ms: number): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    if (probe()) return true;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return probe();
}

describe('against a server that never answers', () => {
  it('fails each case at its own timeout, says what it waited for, and closes every socket it opened', async () => {
    const started = Date.now();
    const report = await runConformance({ port, app, only: ['connection.established', 'connection.pusher-js', 'http-api.bad-signature', 'public-channels.subscribe-and-receive', 'cache-channels.replays-last-event'], caseTimeout: 0.6 });
    const elapsed = Date.now() - started;
    expect(report.results.map((result) => result.status)).toEqual(['fail', 'fail', 'fail', 'fail', 'fail']);
    for (const result of report.results) {
      expect(result.reason, result.id).toMatch(/timed out after 0\.6 s|waited/);
      expect(result.durationMs, result.id).toBeLessThan(1_500);
    }
    expect(report.results[0]!.reason).toMatch(/timed out after 0\.6 s while waiting for the WebSocket ws:\/\/127\.0\.0\.1:\d+\/app\/silent-key/);
    expect(report.summary).toMatchObject({ total: 5, failed: 5, ok: false });
    expect(elapsed).toBeLessThan(8_000);
    // Raw sockets, pusher-js, signed requests and the SDK's requests (the cache case's trigger) are all closed by the cases' clean-up.
    expect(await settled(() => open.size === 0, 3_000)).toBe(true);
  });

  it('bounds the whole run: cases not started when --run-timeout is up are failed as not run', async () => {
    const report = await runConformance({ port, app, only: ['connection'], caseTimeout: 0.5, runTimeout: 1.2 });
    const reasons = report.results.map((result) => result.reason ?? '');
    expect(reasons.some((reason) => reason.startsWith('not run'))).toBe(true);
    expect(report.results.every((result) => result.status === 'fail')).toBe(true);
    expect(report.summary.durationMs).toBeLessThan(3_000);
  });

  it('the bin exits 1 on its own, with one line per case, the summary, and the JSON and JUnit reports', async () => {
    const bin = fileURLToPath(new URL('../bin/pusher-conformance.js', import.meta.url));
    const reports = mkdtempSync(join(tmpdir(), 'conformance-reports-'));
    const json = join(reports, 'report.json');
    const junit = join(reports, 'report.xml');
    const args = ['--port', String(port), '--app-id', app.id, '--app-key', app.key, '--app-secret', app.secret, '--only', 'connection.ping-pong,connection.unknown-app-key', '--case-timeout', '0.5', '--json', json, '--junit', junit];
    const child = spawn(process.execPath, [bin, ...args], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk));
    const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
    expect(code).toBe(1);
    expect(output).toMatch(/^FAIL +\d+ ms {2}connection\.ping-pong: /m);
    expect(output).toMatch(/^FAIL +\d+ ms {2}connection\.unknown-app-key: /m);
    expect(output).toMatch(/0\/2 passed \(0 %\), 2 failed, 0 skipped in [\d.]+ s: does not conform/);
    const report = JSON.parse(readFileSync(json, 'utf8')) as { tool: string; target: unknown; summary: unknown; results: { id: string; status: string; docs: string }[] };
    expect(report.tool).toBe('@org/pusher-conformance');
    expect(report.target).toEqual({ host: '127.0.0.1', port, tls: false });
    expect(report.summary).toMatchObject({ total: 2, passed: 0, failed: 2, skipped: 0, ok: false });
    expect(report.results.map((result) => [result.id, result.status])).toEqual([['connection.ping-pong', 'fail'], ['connection.unknown-app-key', 'fail']]);
    expect(readFileSync(junit, 'utf8')).toMatch(/<testsuite name="connection" tests="2" failures="2" skipped="0"/);
    rmSync(reports, { recursive: true, force: true });
  }, 20_000);
});

describe('the bin', () => {
  const bin = fileURLToPath(new URL('../bin/pusher-conformance.js', import.meta.url));
  const run = (args: string[]) =>
    new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
      const child = spawn(process.execPath, [bin, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (chunk: Buffer) => (stdout += chunk));
      child.stderr.on('data', (chunk: Buffer) => (stderr += chunk));
      child.once('exit', (code) => resolve({ code, stdout, stderr }));
    });

  it('--help prints the usage and exits 0', async () => {
    const { code, stdout } = await run(['--help']);
    expect(code).toBe(0);
    expect(stdout).toMatch(/^Usage: pusher-conformance --port <port>/);
  });

  it('--list prints every case with its documentation section', async () => {
    const { code, stdout } = await run(['--list']);
    expect(code).toBe(0);
    expect(stdout).toMatch(/^connection\.established: .+\n {4}docs: channels\/library_auth_reference\/pusher-websockets-protocol#/m);
    expect(stdout).toMatch(/^idempotency\.retried-trigger-delivered-once \[extension\]/m);
  });

  it('exits 2 with every option problem named by its flag', async () => {
    const { code, stderr } = await run(['--port', 'x', '--app-id', '1']);
    expect(code).toBe(2);
    expect(stderr).toContain('--port must be a port number');
    expect(stderr).toContain('--app-key is required');
  });
});
