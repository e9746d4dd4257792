import { spawn } from 'node:child_process';
import { accessSync, chmodSync, constants, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { afterAll } from 'vitest';
import { sleep } from '../wait.js';

/** The nginx binary: on PATH, or Debian's /usr/sbin/nginx (not on a non-root PATH). */
export function findNginx(): string | undefined {
  const candidates = [...(process.env['PATH'] ?? '').split(delimiter).filter(Boolean).map((dir) => join(dir, 'nginx')), '/usr/sbin/nginx'];
  for (const candidate of candidates) {
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // not here
    }
  }
  return undefined;
}

export interface NginxProcess {
  readonly pid: number;
  readonly errorLog: string;
  stop(): Promise<void>;
}

const running = new Set<NginxProcess>();
afterAll(async () => {
  await Promise.all([...running].map((nginx) => nginx.stop()));
});

/** Resolves once something accepts TCP connections on 127.0.0.1:`port`. */
async function listening(port: number, timeoutMs: number, exited: () => boolean, errorLog: string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const open = await new Promise<boolean>((resolve) => {
      const socket = connect({ host: '127.0.0.1', port }, () => {
        socket.destroy();
        resolve(true);
      });
      socket.on('error', () => resolve(false));
    });
    if (open) return;
    const log = () => {
      try {
        return readFileSync(errorLog, 'utf8');
      } catch {
        return '';
      }
    };
    if (exited()) throw new Error(`nginx exited before listening on ${port}:\n${log()}`);
    if (Date.now() > deadline) throw new Error(`nginx did not listen on ${port} within ${timeoutMs} ms:\n${log()}`);
    await sleep(25);
  }
}

/**
 * Runs nginx in the foreground as one process of ours (`master_process off`,
 * so killing its PID stops everything): `conf` goes inside `http {}` of a
 * minimal main config whose paths (pid, logs, temp files) are all in a temp
 * prefix, never the system's. Killed by PID when the test file ends.
 */
export async function startNginx(binary: string, conf: string, listenPort: number): Promise<NginxProcess> {
  const prefix = mkdtempSync(join(tmpdir(), 'realtime-nginx-'));
  // Readable by the worker user should nginx run as root and switch to `nobody`.
  chmodSync(prefix, 0o755);
  for (const temp of ['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi']) {
    mkdirSync(join(prefix, temp));
    chmodSync(join(prefix, temp), 0o777);
  }
  const errorLog = join(prefix, 'error.log');
  writeFileSync(join(prefix, 'site.conf'), conf);
  writeFileSync(
    join(prefix, 'nginx.conf'),
    [
      'worker_processes 1;',
      'events { worker_connections 256; }',
      'http {',
      '  access_log off;',
      ...['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi'].map((temp) => `  ${temp}_temp_path ${join(prefix, temp)};`),
      `  include ${join(prefix, 'site.conf')};`,
      '}',
      '',
    ].join('\n'),
  );
  const child = spawn(binary, ['-p', prefix, '-c', join(prefix, 'nginx.conf'), '-e', errorLog, '-g', `daemon off; master_process off; pid ${join(prefix, 'nginx.pid')};`], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()));
  const nginx: NginxProcess = {
    pid: child.pid ?? -1,
    errorLog,
    stop: async () => {
      running.delete(nginx);
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGTERM');
        const stopped = await Promise.race([exited.then(() => true), sleep(3_000).then(() => false)]);
        if (!stopped) {
          child.kill('SIGKILL');
          await exited;
        }
      }
      rmSync(prefix, { recursive: true, force: true });
    },
  };
  running.add(nginx);
  try {
    await listening(listenPort, 5_000, () => child.exitCode !== null || child.signalCode !== null, errorLog);
  } catch (error) {
    await nginx.stop();
    throw new Error(`${(error as Error).message}\n${stderr}`);
  }
  return nginx;
}
