import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * Running servers on this host register a pid file, so `restart_server` can
 * find them and signal them (SIGHUP = restart gracefully).
 */
export function pidDirectory(env: NodeJS.ProcessEnv = process.env): string {
  return env['REALTIME_RUN_DIR'] ?? join(tmpdir(), 'realtime-server');
}

export function registerPid(port: number, env?: NodeJS.ProcessEnv): () => void {
  const dir = pidDirectory(env);
  mkdirSync(dir, { recursive: true });
  const file = join(dir, `${port}.pid`);
  writeFileSync(file, String(process.pid));
  return () => rmSync(file, { force: true });
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Signals every live server registered on this host; removes stale entries. Returns the pids signalled. */
export function signalRegisteredServers(signal: NodeJS.Signals, env?: NodeJS.ProcessEnv): number[] {
  const dir = pidDirectory(env);
  let files: string[];
  try {
    files = readdirSync(dir).filter((file) => file.endsWith('.pid'));
  } catch {
    return [];
  }
  const signalled: number[] = [];
  for (const file of files) {
    const pid = Number(readFileSync(join(dir, file), 'utf8'));
    if (!Number.isInteger(pid) || !alive(pid)) {
      rmSync(join(dir, file), { force: true });
      continue;
    }
    process.kill(pid, signal);
    signalled.push(pid);
  }
  return signalled;
}
