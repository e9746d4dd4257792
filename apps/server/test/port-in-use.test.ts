import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { daemonConfig, testApp } from './helpers/apps.js';
import { daemonBin, startDaemon } from './helpers/daemon.js';

describe('a port another server listens on', () => {
  it('stops a second daemon at start with a clear error, instead of it silently taking a share of the first one\'s clients', async () => {
    const first = await startDaemon(daemonConfig([testApp('first')]));
    const second = spawnSync(process.execPath, [daemonBin, 'server', '--host', '127.0.0.1', '--port', String(first.port)], {
      env: { PATH: process.env['PATH'], REALTIME_RUN_DIR: first.dir },
      encoding: 'utf8',
      timeout: 15_000,
    });
    expect(second.status).toBe(1);
    expect(second.stderr).toContain(`could not listen on 127.0.0.1:${first.port}`);
    expect((await fetch(`${first.httpUrl}/up`)).status).toBe(200);
  });
});
