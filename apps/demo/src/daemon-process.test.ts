import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { appDir } from './assets.js';

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

describe('spawnDaemon', () => {
  it('stops the daemon when the process that spawned it is killed with SIGKILL', async () => {
    // A stand-in for the demo: spawns the daemon through the built module, prints its pid, then waits.
    const script = `
      const { spawnDaemon } = await import(${JSON.stringify(pathToFileURL(join(appDir, 'dist', 'index.js')).href)});
      const daemon = await spawnDaemon({ port: 0, credentials: { appId: 'orphan', key: 'orphan-key', secret: 'orphan-secret' } });
      console.log('daemon ' + daemon.pid);
      setInterval(() => {}, 1000);
    `;
    const parent = spawn(process.execPath, ['--input-type=module', '-e', script], { stdio: ['ignore', 'pipe', 'inherit'] });
    const daemonPid = await new Promise<number>((resolve, reject) => {
      let output = '';
      parent.stdout.on('data', (chunk: Buffer) => {
        output += chunk.toString();
        const match = /daemon (\d+)/.exec(output);
        if (match) resolve(Number(match[1]));
      });
      parent.once('exit', (code) => reject(new Error(`the stand-in exited with ${code}: ${output}`)));
    });
    expect(alive(daemonPid)).toBe(true);

    process.kill(parent.pid!, 'SIGKILL');
    const deadline = Date.now() + 10_000;
    while (alive(daemonPid) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
    const orphaned = alive(daemonPid);
    if (orphaned) process.kill(daemonPid, 'SIGKILL'); // never leave it behind, even when the test fails
    expect(orphaned).toBe(false);
  });
});
