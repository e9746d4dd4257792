import { execFileSync } from 'node:child_process';
import { cpus, loadavg, release, totalmem, type } from 'node:os';

export interface MachineInfo {
  date: string;
  commit: string;
  cpuModel: string;
  cpus: number;
  memoryGb: number;
  os: string;
  node: string;
  pinned: boolean;
  loadAverage: string;
}

/** What produced the numbers, for the report. */
export function collectMachine(pinned: boolean): MachineInfo {
  let commit = 'unknown';
  try {
    commit = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
  } catch {
    // Not a git checkout: leave it unknown.
  }
  return {
    date: new Date().toISOString().slice(0, 16).replace('T', ' ') + ' UTC',
    commit,
    cpuModel: cpus()[0]?.model.trim() ?? 'unknown CPU',
    cpus: cpus().length,
    memoryGb: Math.round(totalmem() / 2 ** 30),
    os: `${type()} ${release()}`,
    node: process.versions.node,
    pinned,
    loadAverage: loadavg().map((value) => value.toFixed(2)).join(' '),
  };
}
