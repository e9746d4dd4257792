import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll } from 'vitest';

/**
 * README snippets saved as files under apps/server/node_modules/.guides-*,
 * so their bare imports (`pusher`, `pusher-js`) resolve to this package's
 * dependencies as they would in a reader's project; node_modules is ignored
 * by git. Removed, and their processes killed by PID, when the file ends.
 */
const nodeModules = fileURLToPath(new URL('../../../node_modules/', import.meta.url));

const dirs = new Set<string>();
const children = new Set<ChildProcess>();
afterAll(() => {
  for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

/** Writes `files` (name → content) to a fresh directory and returns its path. */
export function writeSnippetFiles(files: Record<string, string>): string {
  const dir = mkdtempSync(join(nodeModules, '.guides-'));
  dirs.add(dir);
  for (const [name, content] of Object.entries(files)) writeFileSync(join(dir, name), content);
  return dir;
}

export interface SnippetProcess {
  readonly pid: number;
  readonly output: string[];
  /** Resolves with the first output line matching `pattern`; rejects after `timeoutMs` with the output so far. */
  waitForLine(pattern: RegExp, timeoutMs?: number): Promise<RegExpExecArray>;
}

/** Runs `node <script>` with `env` added to ours; its stdout and stderr are recorded line by line. */
export function runNode(script: string, env: Record<string, string>, args: string[] = []): SnippetProcess {
  const child = spawn(process.execPath, [...args, script], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  children.add(child);
  const output: string[] = [];
  const waiters = new Set<() => void>();
  const record = (chunk: string) => {
    output.push(...chunk.split('\n').filter(Boolean));
    for (const waiter of [...waiters]) waiter();
  };
  child.stdout.setEncoding('utf8').on('data', record);
  child.stderr.setEncoding('utf8').on('data', record);
  child.on('exit', () => {
    for (const waiter of [...waiters]) waiter();
  });
  return {
    pid: child.pid ?? -1,
    output,
    waitForLine: (pattern, timeoutMs = 10_000) =>
      new Promise((resolve, reject) => {
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`no line matching ${String(pattern)} from ${script}; output:\n${output.join('\n')}`));
        }, timeoutMs);
        function check() {
          for (const line of output) {
            const match = pattern.exec(line);
            if (match) {
              clearTimeout(timer);
              waiters.delete(check);
              resolve(match);
              return;
            }
          }
          if (child.exitCode !== null || child.signalCode !== null) {
            clearTimeout(timer);
            waiters.delete(check);
            reject(new Error(`${script} exited (${child.exitCode ?? child.signalCode}) before a line matching ${String(pattern)}; output:\n${output.join('\n')}`));
          }
        }
        waiters.add(check);
        check();
      }),
  };
}

/**
 * Evaluates a browser snippet (ES module text) in this process: its `import X
 * from '...'` lines are dropped and `X` is given by `scope` instead, like the
 * other free names (`APP_KEY`, `window`). Returns the value of `result`, an
 * expression over the snippet's top-level names.
 */
export function evaluateSnippet(code: string, scope: Record<string, unknown>, result: string): unknown {
  const body = code.replace(/^import\s+\w+\s+from\s+'[^']+';\s*$/gm, '');
  if (/^\s*import\s/m.test(body)) throw new Error('the snippet has an import this helper cannot provide');
  const run = new Function(...Object.keys(scope), `${body}\nreturn (${result});`) as (...values: unknown[]) => unknown;
  return run(...Object.values(scope));
}
