import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { spawnDaemon, startDaemon, type DaemonProcess, type SpawnDaemonOptions } from './daemon.js';
import { processAlive } from './process-alive.js';

const bin = fileURLToPath(new URL('../test/fixture-daemon.mjs', import.meta.url));

const running: DaemonProcess[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((daemon) => daemon.kill()));
});

function options(config: Record<string, unknown>, extra: Partial<SpawnDaemonOptions> = {}): SpawnDaemonOptions {
  return { bin, config, args: ({ configFile }) => ['--config', configFile], ...extra };
}

describe('startDaemon', () => {
  it('writes the config, spawns the script with the arguments and environment given, and resolves on the ready line', async () => {
    const daemon = await startDaemon({
      ...options({ port: 1234 }),
      env: ({ dir }) => ({ ...process.env, FIXTURE_ENV: dir }),
      ready: (line) => line['msg'] === 'listening',
    });
    running.push(daemon);
    expect(daemon.readyLine).toEqual({ msg: 'listening', port: 1234, env: daemon.dir });
    expect(JSON.parse(readFileSync(daemon.configFile, 'utf8'))).toEqual({ port: 1234 });
    expect(daemon.output[0]).toBe('a plain text line');
    expect(processAlive(daemon.pid)).toBe(true);
  });

  it('stop() sends SIGTERM by PID and resolves with the exit code; the temp dir goes with the process', async () => {
    const daemon = await startDaemon({ ...options({ port: 1 }), ready: (line) => line['msg'] === 'listening' });
    running.push(daemon);
    expect(await daemon.stop()).toBe(0);
    expect(daemon.output).toContain('{"msg":"stopping"}');
    expect(processAlive(daemon.pid)).toBe(false);
    expect(existsSync(daemon.dir)).toBe(false);
  });

  it('kill() sends SIGKILL by PID', async () => {
    const daemon = await startDaemon({ ...options({ port: 1 }), ready: (line) => line['msg'] === 'listening' });
    running.push(daemon);
    expect(await daemon.kill()).toBe('SIGKILL');
    expect(await daemon.kill()).toBe('SIGKILL'); // again: already gone, same answer
  });

  it('rejects with DAEMON_EXITED and the output when the process exits before the ready line', async () => {
    await expect(startDaemon({ ...options({ exitBeforeReady: true }), ready: (line) => line['msg'] === 'listening' })).rejects.toMatchObject({
      code: 'DAEMON_EXITED',
      message: expect.stringContaining('refusing to start'),
    });
  });

  it('kills a daemon that does not log the ready line in time, and rejects with DAEMON_LOG_TIMEOUT', async () => {
    let dir = '';
    const error = await startDaemon({
      ...options({ port: 1, silent: true }),
      env: (files) => ((dir = files.dir), process.env),
      ready: (line) => line['msg'] === 'never',
      readyTimeoutMs: 300,
    }).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'DAEMON_LOG_TIMEOUT', message: expect.stringContaining('no matching log line within 300 ms') });
    // The temp dir is removed once the process has exited, so the kill was awaited.
    expect(dir).not.toBe('');
    expect(existsSync(dir)).toBe(false);
  });
});

describe('waitForLog', () => {
  it('answers at once from lines already logged, else waits for the next match', async () => {
    const daemon = spawnDaemon(options({ port: 7 }));
    running.push(daemon);
    const listening = await daemon.waitForLog((line) => line['msg'] === 'listening');
    expect(await daemon.waitForLog((line) => line['msg'] === 'listening')).toEqual(listening);
    expect(await daemon.waitForLog((line) => line['msg'] === 'tick')).toEqual({ msg: 'tick' });
  });
});
