import { execFile, execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startDaemon, freePort } from '@org/dev-kit';
import WebSocket from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { packAll, runtimeClosure } from './helpers/packed/pack-workspace.js';
import { startScopeRegistry, type PackedPackage, type ScopeRegistry } from './helpers/packed/scope-registry.js';
import { waitFor } from './helpers/wait.js';

/*
 * What a user does after we publish: install `@org/realtime-server` from a
 * registry into an empty folder (locally, globally, or through npx) and
 * run `realtime-server server`. The tarballs are those `pnpm pack` makes from
 * this checkout; our scope comes from a registry on loopback, every other
 * package from the public registry npm is configured with, into an npm
 * cache kept between runs (only the download is cached: each run installs
 * anew).
 */

const app = { id: 'packed-app', key: 'packed-key', secret: 'packed-secret' };
const work = mkdtempSync(join(tmpdir(), 'realtime-packed-'));
const npmCache = join(tmpdir(), 'realtime-packed-install-npm-cache');

let registry: ScopeRegistry;
let packed: PackedPackage[];
/** How to end each process this file started, run when the file ends even after a failure. */
const cleanups: (() => unknown)[] = [];
let userConfig: string;
/**
 * The machine's global npmrc, kept for every npm call: `--global --prefix P` would otherwise read
 * `P/etc/npmrc` instead, losing what the machine configures there (a `cafile` for a TLS proxy: the
 * registry then failed with SELF_SIGNED_CERT_IN_CHAIN, three tries of 70 s per package).
 */
const globalConfig = execFileSync('npm', ['config', 'get', 'globalconfig'], { encoding: 'utf8', env: userEnv() }).trim();

/**
 * A user's environment: none of the variables `pnpm run` sets for the test run (it points
 * `npm_config_globalconfig` at pnpm's own rc file, for one) nor the daemon's.
 */
function userEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(process.env)) {
    if (!/^(npm|pnpm)_/i.test(name) && name !== 'REDIS_URL' && !name.startsWith('REALTIME_')) env[name] = value;
  }
  return env;
}

/** npm's environment: a user's, with our scope's registry, our cache and the machine's global npmrc. */
function npmEnv(): NodeJS.ProcessEnv {
  const env = userEnv();
  return { ...env, npm_config_userconfig: userConfig, npm_config_globalconfig: globalConfig, REALTIME_RUN_DIR: join(work, 'run') };
}

/** Runs npm to the end; asynchronously, since the registry it talks to answers from this process. */
function npm(args: string[], cwd: string): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile('npm', args, { cwd, env: npmEnv(), encoding: 'utf8', timeout: 240_000 }, (error, stdout, stderr) => {
      if (error) reject(new Error(`npm ${args.join(' ')} failed: ${error.message}\n${stdout}\n${stderr}`));
      else resolve(stdout);
    });
  });
}

beforeAll(async () => {
  packed = packAll(runtimeClosure('@org/realtime-server'), join(work, 'tarballs'));
  registry = await startScopeRegistry(packed);
  userConfig = join(work, 'user.npmrc');
  writeFileSync(userConfig, `@org:registry=${registry.url}\ncache=${npmCache}\nfund=false\naudit=false\nupdate-notifier=false\n`);
  // npx keeps what it installed under the cache's _npx, keyed by the package spec only: with the
  // version unchanged between builds it would run an earlier build, so each run starts without it.
  rmSync(join(npmCache, '_npx'), { recursive: true, force: true });
}, 120_000);

afterAll(async () => {
  for (const cleanup of cleanups) await cleanup();
  await registry?.close();
  rmSync(work, { recursive: true, force: true });
});

/** `GET /up`, retried while the port does not answer yet. */
async function up(port: number): Promise<Response> {
  let last: unknown;
  for (let attempt = 0; attempt < 150; attempt++) {
    try {
      return await fetch(`http://127.0.0.1:${port}/up`);
    } catch (error) {
      last = error;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
  throw new Error(`no answer on port ${port}: ${String(last)}`);
}

/** Opens a WebSocket as pusher-js would and resolves with the first frame. */
function firstFrame(port: number): Promise<{ event: string; data: string }> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(`ws://127.0.0.1:${port}/app/${app.key}?protocol=7&client=js&version=8.4.0`);
    socket.once('message', (data) => {
      resolve(JSON.parse(String(data)) as { event: string; data: string });
      socket.close();
    });
    socket.once('error', reject);
  });
}

const appEnv = { REALTIME_APP_ID: app.id, REALTIME_APP_KEY: app.key, REALTIME_APP_SECRET: app.secret };

/** Runs an installed `realtime-server` bin as `server` on a free port of 127.0.0.1, killed when the file ends. */
async function startInstalled(bin: string) {
  const daemon = await startDaemon({
    bin,
    args: () => ['server', '--host', '127.0.0.1', '--port', '0'],
    env: () => ({ ...npmEnv(), ...appEnv }),
    ready: (line) => line['msg'] === 'listening' && typeof line['port'] === 'number',
    readyTimeoutMs: 20_000,
  });
  cleanups.push(() => daemon.kill());
  return daemon;
}

describe('the packed daemon, installed as a user would', () => {
  it('packs the daemon and the workspace packages it depends on, with no workspace: ranges left', () => {
    const names = packed.map((pkg) => pkg.manifest.name).sort();
    expect(names).toContain('@org/realtime-server');
    expect(names).toContain('@org/protocol');
    for (const pkg of packed) {
      expect(JSON.stringify(pkg.manifest), pkg.manifest.name).not.toMatch(/workspace:/);
      expect(pkg.manifest['private'], pkg.manifest.name).toBeUndefined();
    }
    const server = packed.find((pkg) => pkg.manifest.name === '@org/realtime-server')!;
    const bin = server.manifest['bin'] as Record<string, string>;
    expect(Object.keys(bin)).toEqual(['realtime-server']);
    expect(bin['realtime-server']!.replace(/^\.\//, '')).toBe('bin/realtime-server.js');
  });

  it('npm install into an empty folder, then `realtime-server server` serves /up and WebSockets on uWebSockets.js', async () => {
    const project = join(work, 'project');
    mkdirSync(project);
    writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'user-app', private: true }));
    await npm(['install', '@org/realtime-server'], project);

    const bin = join(project, 'node_modules', '.bin', 'realtime-server');
    expect(existsSync(bin)).toBe(true);
    // npm took our scope from the loopback registry only, and nothing else from it.
    expect(registry.requested.every((name) => name.startsWith('@org/'))).toBe(true);

    const daemon = await startInstalled(bin);
    const port = daemon.readyLine['port'] as number;
    try {
      expect((await up(port)).status).toBe(200);
      const frame = await firstFrame(port);
      expect(frame.event).toBe('pusher:connection_established');
      // The native uWebSockets.js, not the JavaScript emulation the daemon refuses without --allow-uws-fallback.
      expect(daemon.output.join('\n')).not.toMatch(/fallback/i);
    } finally {
      expect(await daemon.stop()).toBe(0);
    }
  }, 300_000);

  it('npm install --global puts `realtime-server` on the PATH and it starts', async () => {
    const prefix = join(work, 'global');
    await npm(['install', '--global', '--prefix', prefix, '@org/realtime-server'], work);
    const bin = join(prefix, 'bin', 'realtime-server');
    expect(existsSync(bin)).toBe(true);
    const usage = execFileSync(bin, ['help'], { env: npmEnv(), encoding: 'utf8' });
    expect(usage).toMatch(/realtime-server server \[--host/);

    const daemon = await startInstalled(bin);
    try {
      expect((await up(daemon.readyLine['port'] as number)).status).toBe(200);
    } finally {
      expect(await daemon.stop()).toBe(0);
    }
  }, 300_000);

  it('`npx @org/realtime-server server --port P` runs the published bin', async () => {
    const port = await freePort();
    const cwd = join(work, 'npx');
    mkdirSync(cwd);
    const child = spawn('npx', ['--yes', '@org/realtime-server', 'server', '--host', '127.0.0.1', '--port', String(port)], {
      cwd,
      env: { ...npmEnv(), ...appEnv },
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true, // its own process group: npx starts the daemon as a child, and both are stopped together
    });
    const killGroup = (signal: NodeJS.Signals) => {
      try {
        process.kill(-child.pid!, signal);
      } catch {
        // the group is gone already
      }
    };
    cleanups.push(() => killGroup('SIGKILL'));
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk));
    // npx's own exit: its code, else the signal that ended it.
    const exited = new Promise<number | string>((resolve) => child.once('exit', (code, signal) => resolve(code ?? signal ?? 'unknown')));

    let exit: number | string | undefined;
    void exited.then((code) => (exit = code));
    await waitFor(() => (output.includes('"msg":"listening"') || exit !== undefined ? true : undefined), 'npx to start the daemon', 200_000);
    expect(exit, output).toBeUndefined();
    expect((await up(port)).status).toBe(200);
    expect((await firstFrame(port)).event).toBe('pusher:connection_established');
    // Ctrl-C in the operator's terminal: SIGINT to the whole foreground process group, npx's
    // shell and the daemon included. (A SIGTERM to the npx process alone did not stop the
    // daemon within 10 s when this test tried it: npx is a launcher, not a supervisor.)
    killGroup('SIGINT');
    await waitFor(() => (output.includes('"msg":"stopped"') ? true : undefined), `the daemon's "stopped" line (output: ${output})`, 15_000);
    expect([0, 'SIGINT']).toContain(await exited);
    await expect(fetch(`http://127.0.0.1:${port}/up`)).rejects.toThrow();
  }, 300_000);

  it('ships the README and no test or source files', () => {
    const server = packed.find((pkg) => pkg.manifest.name === '@org/realtime-server')!;
    const files = execFileSync('tar', ['-tzf', server.file], { encoding: 'utf8' }).trim().split('\n');
    expect(files).toContain('package/README.md');
    expect(files).toContain('package/bin/realtime-server.js');
    expect(files).toContain('package/dist/bin.js');
    expect(files.filter((file) => /\.test\.|\/src\/|\/test\//.test(file))).toEqual([]);
  });
});
