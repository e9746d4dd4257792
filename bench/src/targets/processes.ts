import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { connect } from 'node:net';
import { availableParallelism } from 'node:os';

/** A port the OS called free a moment ago on 127.0.0.1 (one implementation for the repo, in @org/dev-kit). */
export { freePort } from '@org/dev-kit';

class ProcessError extends Error {
  override readonly name = 'ProcessError';
  constructor(
    readonly code: 'START_FAILED' | 'NOT_READY',
    message: string,
  ) {
    super(message);
  }
}

let tasksetChecked: boolean | undefined;

/** True when `taskset` (util-linux) can pin processes here and there are at least 2 CPUs. */
export function canPin(): boolean {
  if (tasksetChecked === undefined) {
    const probe = spawnSync('taskset', ['-p', String(process.pid)], { stdio: 'ignore' });
    tasksetChecked = probe.status === 0 && availableParallelism() >= 2;
  }
  return tasksetChecked;
}

/** Pins every thread of `pid` to `cpu` (best effort; false when not possible). */
export function pin(pid: number, cpu: number): boolean {
  if (!canPin()) return false;
  return spawnSync('taskset', ['-a', '-cp', String(cpu), String(pid)], { stdio: 'ignore' }).status === 0;
}

/** Spawns `command args` on `cpu` when pinning is possible. */
export function spawnPinned(cpu: number | undefined, command: string, args: string[], env: NodeJS.ProcessEnv): ChildProcess {
  const pinned = cpu !== undefined && canPin();
  return spawn(pinned ? 'taskset' : command, pinned ? ['-c', String(cpu), command, ...args] : args, {
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}

/** Resolves once a TCP connect to 127.0.0.1:port succeeds; rejects after `timeoutMs` or when `child` exits. */
export async function waitForPort(port: number, child: ChildProcess, output: () => string, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null || child.signalCode !== null) {
      throw new ProcessError('START_FAILED', `process exited (${child.exitCode ?? child.signalCode}):\n${output()}`);
    }
    const open = await new Promise<boolean>((resolve) => {
      const socket = connect({ host: '127.0.0.1', port });
      socket.once('connect', () => {
        socket.destroy();
        resolve(true);
      });
      socket.once('error', () => resolve(false));
    });
    if (open) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new ProcessError('NOT_READY', `nothing listens on port ${port} after ${timeoutMs} ms:\n${output()}`);
}

/** Resident set size of `pid` in bytes (Linux /proc). */
export function rssBytes(pid: number): number {
  const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return match ? Number(match[1]) * 1024 : Number.NaN;
}

const ticksPerSecond = 100;

/** User + system CPU seconds used so far by `pid` (Linux /proc). */
export function cpuSeconds(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  // Fields after the command name, which is in parentheses and may contain spaces.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / ticksPerSecond;
}

/** System (kernel) CPU seconds used so far by `pid`: the part of `cpuSeconds` spent in system calls. */
export function systemCpuSeconds(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[12]) / ticksPerSecond;
}

/** Collects a child's stdout and stderr (last 20,000 characters) for error messages. */
export function collectOutput(child: ChildProcess): () => string {
  let text = '';
  const add = (chunk: Buffer) => {
    text = (text + chunk.toString('utf8')).slice(-20_000);
  };
  child.stdout?.on('data', add);
  child.stderr?.on('data', add);
  return () => text;
}

/** SIGTERM by PID, SIGKILL after `graceMs`; resolves when the process is gone. */
export async function stopProcess(child: ChildProcess, graceMs = 3_000): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null || child.pid === undefined) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  process.kill(child.pid, 'SIGTERM');
  const timer = setTimeout(() => child.pid !== undefined && child.exitCode === null && process.kill(child.pid, 'SIGKILL'), graceMs);
  await exited;
  clearTimeout(timer);
}
