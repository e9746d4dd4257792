import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { processIdentity, registerPid, signalRegisteredServers } from './pid-files.js';

const children: ChildProcess[] = [];
afterEach(() => {
  for (const child of children.splice(0)) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
});

/** A live process that is not a realtime server; it would die of SIGHUP (the default action). */
async function unrelatedProcess(): Promise<ChildProcess> {
  const child = spawn('sleep', ['30'], { stdio: 'ignore' });
  children.push(child);
  await new Promise((resolve) => child.once('spawn', resolve));
  return child;
}

function runDir(): NodeJS.ProcessEnv {
  return { REALTIME_RUN_DIR: mkdtempSync(join(tmpdir(), 'realtime-pids-')) };
}

describe('pid files', () => {
  it('record this process with an identity only this process has', () => {
    const env = runDir();
    const unregister = registerPid(6001, env);
    const record = JSON.parse(readFileSync(join(env['REALTIME_RUN_DIR']!, '6001.pid'), 'utf8')) as Record<string, unknown>;
    expect(record).toEqual({ pid: process.pid, port: 6001, identity: processIdentity(process.pid) });
    expect(record['identity']).toEqual(expect.stringContaining(process.argv[1] ?? process.execPath));
    unregister();
    expect(readdirSync(env['REALTIME_RUN_DIR']!)).toEqual([]);
  });

  it('tell two processes, and a dead pid, apart', async () => {
    const child = await unrelatedProcess();
    expect(processIdentity(child.pid!)).toMatch(/sleep 30/);
    expect(processIdentity(child.pid!)).not.toBe(processIdentity(process.pid));
    child.kill('SIGKILL');
    await new Promise((resolve) => child.once('exit', resolve));
    expect(processIdentity(child.pid!)).toBeUndefined();
    expect(processIdentity(-1)).toBeUndefined();
  });

  it('never signal a live process whose identity is not the recorded one, and remove its file', async () => {
    const env = runDir();
    const dir = env['REALTIME_RUN_DIR']!;
    const child = await unrelatedProcess();
    // The pid was reused: a server registered it once, with its own identity.
    writeFileSync(join(dir, '7001.pid'), JSON.stringify({ pid: child.pid, port: 7001, identity: 'linux:1234:node /opt/realtime/bin.js server' }));
    // An older version's file: a bare pid proves nothing.
    writeFileSync(join(dir, '7002.pid'), String(child.pid));
    writeFileSync(join(dir, '7003.pid'), '{ torn write');

    const result = signalRegisteredServers('SIGHUP', env);
    expect(result).toEqual({ signalled: [], removed: expect.arrayContaining(['7001.pid', '7002.pid', '7003.pid']) });
    expect(readdirSync(dir)).toEqual([]);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(child.exitCode).toBeNull();
    expect(child.signalCode).toBeNull();
  });

  it('signal a process whose identity matches, and remove the file of one that has exited', async () => {
    const env = runDir();
    const dir = env['REALTIME_RUN_DIR']!;
    const live = await unrelatedProcess();
    const dead = await unrelatedProcess();
    const deadIdentity = processIdentity(dead.pid!);
    dead.kill('SIGKILL');
    await new Promise((resolve) => dead.once('exit', resolve));
    writeFileSync(join(dir, '8001.pid'), JSON.stringify({ pid: live.pid, port: 8001, identity: processIdentity(live.pid!) }));
    writeFileSync(join(dir, '8002.pid'), JSON.stringify({ pid: dead.pid, port: 8002, identity: deadIdentity }));

    const exited = new Promise((resolve) => live.once('exit', (_code, signal) => resolve(signal)));
    expect(signalRegisteredServers('SIGTERM', env)).toEqual({ signalled: [live.pid], removed: ['8002.pid'] });
    expect(await exited).toBe('SIGTERM');
    expect(existsSync(join(dir, '8001.pid'))).toBe(true);
  });

  it('unregister leaves a file alone that another server has taken over', () => {
    const env = runDir();
    const file = join(env['REALTIME_RUN_DIR']!, '9001.pid');
    const unregister = registerPid(9001, env);
    writeFileSync(file, JSON.stringify({ pid: 1, port: 9001, identity: 'someone else' }));
    unregister();
    expect(existsSync(file)).toBe(true);
  });
});
