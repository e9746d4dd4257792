import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { daemonConfig, testApp } from './helpers/apps.js';
import { daemonBin, freePort, startDaemon } from './helpers/daemon.js';
import { sleep } from './helpers/wait.js';

const unrelated: ChildProcess[] = [];
afterAll(() => {
  for (const child of unrelated) if (child.exitCode === null && child.signalCode === null) process.kill(child.pid!, 'SIGKILL');
});

function restartServer(runDir: string): Promise<{ code: number | null; stdout: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [daemonBin, 'restart_server'], {
      env: { ...process.env, REDIS_URL: '', REALTIME_RUN_DIR: runDir },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let stdout = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.once('error', reject);
    child.once('exit', (code) => resolve({ code, stdout }));
  });
}

describe('restart_server and pid files', () => {
  it('signals only the proven server: a pid file whose pid now belongs to another process is removed and that process is not signalled', async () => {
    const app = testApp('pid-files');
    // A run dir of the test's own: the helper deletes the daemon's dir when it exits, and this test looks after that.
    const runDir = mkdtempSync(join(tmpdir(), 'realtime-run-'));
    const daemon = await startDaemon(daemonConfig([app]), { port: await freePort(), env: { REALTIME_RUN_DIR: runDir } });
    await daemon.waitForLog((line) => line['msg'] === 'server started');
    const ownFile = `${daemon.port}.pid`;
    expect(JSON.parse(readFileSync(join(runDir, ownFile), 'utf8'))).toMatchObject({ pid: daemon.pid, port: daemon.port, identity: expect.any(String) });

    // SIGHUP would kill `sleep` (its default action), so its survival shows it was not signalled.
    const sleeper = spawn('sleep', ['30'], { stdio: 'ignore' });
    unrelated.push(sleeper);
    await new Promise((resolve) => sleeper.once('spawn', resolve));
    const ownRecord = JSON.parse(readFileSync(join(runDir, ownFile), 'utf8')) as { identity: string };
    // A server once registered this pid (same command line as ours, other start time), and an older version's bare pid file.
    writeFileSync(join(runDir, '1.pid'), JSON.stringify({ pid: sleeper.pid, port: 1, identity: ownRecord.identity }));
    writeFileSync(join(runDir, '2.pid'), String(sleeper.pid));
    // A server that is gone.
    writeFileSync(join(runDir, '3.pid'), JSON.stringify({ pid: 2 ** 22 + 17, port: 3, identity: ownRecord.identity }));

    const result = await restartServer(runDir);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(`Asked 1 server(s) to restart: ${daemon.pid}`);
    expect(result.stdout).toMatch(/Removed 3 stale pid file\(s\)/);
    await daemon.waitForLog((line) => line['msg'] === 'server restarted');

    await sleep(100);
    expect(sleeper.exitCode).toBeNull();
    expect(sleeper.signalCode).toBeNull();
    expect(readdirSync(runDir).filter((file) => file.endsWith('.pid'))).toEqual([ownFile]);

    // Its pid file goes with the server.
    expect(await daemon.stop()).toBe(0);
    expect(existsSync(join(runDir, ownFile))).toBe(false);
    rmSync(runDir, { recursive: true, force: true });
  }, 30_000);
});
