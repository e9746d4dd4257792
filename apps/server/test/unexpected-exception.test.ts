import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { daemonConfig, testApp } from './helpers/apps.js';
import { startDaemon } from './helpers/daemon.js';
import { connectRaw } from './helpers/raw-socket.js';

const app = testApp('unexpected');
const runDirs: string[] = [];
afterAll(() => {
  for (const dir of runDirs) rmSync(dir, { recursive: true, force: true });
});

/** A run dir of the test's own: the helper deletes the daemon's dir on exit, and the pid file is checked after it. */
function runDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'realtime-crash-'));
  runDirs.push(dir);
  return dir;
}

describe('an unexpected exception in the daemon', () => {
  it.each([
    ['uncaughtException', 'throw', /an exception thrown from a timer/],
    ['unhandledRejection', 'reject', /a rejection nobody handles/],
  ])('(%s) is logged once, clients are told to reconnect (4200), the pid file goes and the exit code is 70', async (origin, mode, errorMessage) => {
    const dir = runDir();
    const daemon = await startDaemon(daemonConfig([app]), { env: { REALTIME_TEST_CRASH_ON_SIGNAL: mode, REALTIME_RUN_DIR: dir } });
    await daemon.waitForLog((line) => line['msg'] === 'server started');
    expect(readdirSync(dir)).toEqual([`${daemon.port}.pid`]);
    const { socket } = await connectRaw(daemon, app.key);

    process.kill(daemon.pid, 'SIGUSR2');
    // Twice: the second error comes while draining, and is not logged again.
    process.kill(daemon.pid, 'SIGUSR2');

    expect((await socket.next('pusher:error')).data).toMatchObject({ code: 4200 });
    expect((await socket.closedWithin()).code).toBe(4200);
    expect(await daemon.exited).toBe(70);

    const fatal = daemon.output.filter((line) => line.includes('"msg":"unexpected exception'));
    expect(fatal).toHaveLength(1);
    const line = JSON.parse(fatal[0]!) as { level: number; origin: string; exitCode: number; err: { message: string; stack: string } };
    expect(line).toMatchObject({ level: 60, origin, exitCode: 70 });
    expect(line.err.message).toMatch(errorMessage);
    expect(line.err.stack).toMatch(/\n\s+at /);
    expect(daemon.output.join('\n')).toMatch(/"msg":"stopped"/);
    expect(existsSync(join(dir, `${daemon.port}.pid`))).toBe(false);
  });
});
