import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { processAlive } from './process-alive.js';

describe('processAlive', () => {
  it('is true for a running process and false once it is gone', async () => {
    const child = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' });
    const exited = new Promise((resolve) => child.once('exit', resolve));
    expect(processAlive(child.pid!)).toBe(true);
    process.kill(child.pid!, 'SIGKILL');
    await exited;
    expect(processAlive(child.pid!)).toBe(false);
  });
});
