import { execFileSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * Running servers on this host register a pid file, so `restart_server` can
 * find them and signal them (SIGHUP = restart gracefully).
 *
 * A pid alone proves nothing: after a crash or a reboot the file stays and
 * its pid may belong to any other process by then. So the file also records
 * the server's *identity*, its start time and command line as the kernel
 * reports them, and a process is signalled only when its identity today is
 * the recorded one. A pid that was reused has another start time; a file
 * that cannot be proven is stale, removed and never signalled.
 */
function pidDirectory(env: NodeJS.ProcessEnv = process.env): string {
  return env['REALTIME_RUN_DIR'] ?? join(tmpdir(), 'realtime-server');
}

/** What a pid file holds (JSON). */
interface PidRecord {
  pid: number;
  port: number;
  /** `processIdentity(pid)` when the server registered. */
  identity: string;
}

/**
 * Who a live process is, in terms the kernel keeps and no one else can set
 * for an existing pid: its start time (clock ticks after boot, field 22 of
 * /proc/<pid>/stat) and its command line. Without /proc (macOS, BSD), the
 * same two from `ps`. Undefined when the process is gone or unreadable.
 */
export function processIdentity(pid: number): string | undefined {
  if (!Number.isInteger(pid) || pid <= 0) return undefined;
  let stat: string;
  try {
    stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT' && procAvailable()) return undefined;
    return identityFromPs(pid);
  }
  // The command name (field 2) is in parentheses and may itself hold spaces and parentheses.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const startTime = fields[19];
  let cmdline: string;
  try {
    cmdline = readFileSync(`/proc/${pid}/cmdline`, 'utf8');
  } catch {
    return undefined;
  }
  return startTime ? `linux:${startTime}:${cmdline.replaceAll('\u0000', ' ').trim()}` : undefined;
}

let hasProc: boolean | undefined;
function procAvailable(): boolean {
  if (hasProc === undefined) {
    try {
      readFileSync('/proc/self/stat');
      hasProc = true;
    } catch {
      hasProc = false;
    }
  }
  return hasProc;
}

function identityFromPs(pid: number): string | undefined {
  try {
    const out = execFileSync('ps', ['-p', String(pid), '-o', 'lstart=', '-o', 'args='], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
    return out ? `ps:${out}` : undefined;
  } catch {
    return undefined;
  }
}

/** Registers this process for `port`; the returned function removes the file if it is still ours. */
export function registerPid(port: number, env?: NodeJS.ProcessEnv): () => void {
  const dir = pidDirectory(env);
  mkdirSync(dir, { recursive: true });
  const file = join(dir, `${port}.pid`);
  const identity = processIdentity(process.pid);
  if (identity === undefined) throw new Error(`cannot determine this process's identity for ${file} (no /proc and no ps)`);
  const record: PidRecord = { pid: process.pid, port, identity };
  writeFileSync(file, `${JSON.stringify(record)}\n`);
  return () => {
    if (readRecord(file)?.pid === process.pid) rmSync(file, { force: true });
  };
}

function readRecord(file: string): PidRecord | undefined {
  try {
    const value: unknown = JSON.parse(readFileSync(file, 'utf8'));
    if (typeof value !== 'object' || value === null) return undefined;
    const { pid, port, identity } = value as Record<string, unknown>;
    if (!Number.isInteger(pid) || !Number.isInteger(port) || typeof identity !== 'string') return undefined;
    return { pid: pid as number, port: port as number, identity };
  } catch {
    // Unreadable, not JSON (a pid file of an older version: unprovable), or gone meanwhile.
    return undefined;
  }
}

export interface SignalResult {
  /** Pids of the proven servers that were signalled. */
  signalled: number[];
  /** Pid files removed as stale: unreadable, a dead pid, or a pid that is not the registered server. */
  removed: string[];
}

/**
 * Signals every registered server on this host whose identity is proven,
 * and removes every stale pid file without signalling anything for it.
 */
export function signalRegisteredServers(signal: NodeJS.Signals, env?: NodeJS.ProcessEnv): SignalResult {
  const dir = pidDirectory(env);
  const result: SignalResult = { signalled: [], removed: [] };
  let files: string[];
  try {
    files = readdirSync(dir).filter((file) => file.endsWith('.pid'));
  } catch {
    return result;
  }
  for (const file of files) {
    const path = join(dir, file);
    const record = readRecord(path);
    if (!record || record.pid === process.pid || processIdentity(record.pid) !== record.identity) {
      rmSync(path, { force: true });
      result.removed.push(file);
      continue;
    }
    try {
      process.kill(record.pid, signal);
      result.signalled.push(record.pid);
    } catch {
      // Exited between the check and the signal.
      rmSync(path, { force: true });
      result.removed.push(file);
    }
  }
  return result;
}
