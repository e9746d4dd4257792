import { execFile, execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { daemonConfig, testApp } from './helpers/apps.js';
import { startDaemon } from './helpers/daemon.js';
import { packAll, runtimeClosure } from './helpers/packed/pack-workspace.js';
import { startScopeRegistry, type PackedPackage, type ScopeRegistry } from './helpers/packed/scope-registry.js';

/*
 * What a user of @org/pusher-conformance does: install the published tarball into an empty folder
 * and run `npx pusher-conformance`. The tarball is `pnpm pack`'s; our scope comes from a registry on
 * loopback (the kit must need nothing else of ours), pusher-js, pusher, ws and zod from the public
 * registry npm is configured with, into an npm cache kept between runs.
 */

const work = mkdtempSync(join(tmpdir(), 'conformance-packed-'));
const npmCache = join(tmpdir(), 'realtime-packed-install-npm-cache');
const globalConfig = execFileSync('npm', ['config', 'get', 'globalconfig'], { encoding: 'utf8', env: userEnv() }).trim();
let registry: ScopeRegistry;
let packed: PackedPackage[];
let userConfig: string;
const project = join(work, 'project');

/** A user's environment: none of the variables `pnpm run` or the daemon set. */
function userEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(process.env)) {
    if (!/^(npm|pnpm)_/i.test(name) && name !== 'REDIS_URL' && !name.startsWith('REALTIME_')) env[name] = value;
  }
  return env;
}

function npmEnv(): NodeJS.ProcessEnv {
  return { ...userEnv(), npm_config_userconfig: userConfig, npm_config_globalconfig: globalConfig };
}

/** Runs a command to its end (asynchronously: the registry answers from this process); resolves with its exit code and output. */
function run(command: string, args: string[], timeout = 240_000): Promise<{ code: number; output: string }> {
  return new Promise((resolve) => {
    execFile(command, args, { cwd: project, env: npmEnv(), encoding: 'utf8', timeout }, (error, stdout, stderr) => {
      const code = error ? (typeof error.code === 'number' ? error.code : -1) : 0;
      resolve({ code, output: `${stdout}${stderr}` });
    });
  });
}

beforeAll(async () => {
  packed = packAll(runtimeClosure('@org/pusher-conformance'), join(work, 'tarballs'));
  registry = await startScopeRegistry(packed);
  userConfig = join(work, 'user.npmrc');
  writeFileSync(userConfig, `@org:registry=${registry.url}\ncache=${npmCache}\nfund=false\naudit=false\nupdate-notifier=false\n`);
  mkdirSync(project);
  writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'server-under-test', private: true }));
  const install = await run('npm', ['install', '@org/pusher-conformance']);
  if (install.code !== 0) throw new Error(`npm install @org/pusher-conformance failed:\n${install.output}`);
}, 300_000);

afterAll(async () => {
  await registry?.close();
  rmSync(work, { recursive: true, force: true });
});

describe('the packed conformance kit, installed as a user would', () => {
  it('is one package that depends on nothing of ours, with no workspace: ranges', () => {
    expect(packed.map((pkg) => pkg.manifest.name)).toEqual(['@org/pusher-conformance']);
    const manifest = packed[0]!.manifest;
    expect(JSON.stringify(manifest)).not.toMatch(/workspace:/);
    // What an install pulls in: no package of ours (devDependencies, @org/dev-kit among them, are not installed).
    expect(JSON.stringify([manifest['dependencies'], manifest['peerDependencies'] ?? {}, manifest['optionalDependencies'] ?? {}])).not.toMatch(/@org\//);
    expect(Object.keys(manifest['dependencies'] as Record<string, string>).sort()).toEqual(['pusher', 'pusher-js', 'ws', 'zod']);
    expect(registry.requested).toEqual(['@org/pusher-conformance']);
  });

  it('`npx pusher-conformance --help` prints the usage', async () => {
    const { code, output } = await run('npx', ['pusher-conformance', '--help']);
    expect(code, output).toBe(0);
    expect(output).toMatch(/^Usage: pusher-conformance --port <port>/);
  }, 60_000);

  it('`npx pusher-conformance` runs against a daemon and writes its JUnit report', async () => {
    const app = testApp('packed-kit');
    const daemon = await startDaemon(daemonConfig([app]));
    const junit = join(work, 'junit.xml');
    const { code, output } = await run('npx', [
      'pusher-conformance', '--port', String(daemon.port), '--app-id', app.id, '--app-key', app.key, '--app-secret', app.secret,
      '--only', 'connection,public-channels,presence-channels', '--junit', junit,
    ]);
    expect(code, output).toBe(0);
    expect(output).toMatch(/^PASS +\d+ ms {2}connection\.established: /m);
    expect(output).toMatch(/^(\d+)\/\1 passed \(100 %\), 0 failed, 0 skipped in [\d.]+ s: conforms$/m);
    expect(readFileSync(junit, 'utf8')).toMatch(/<testsuites name="pusher-conformance" tests="\d+" failures="0" skipped="0"/);
  }, 120_000);

  it('ships its README, bin and dist, and no test or source files', () => {
    const files = execFileSync('tar', ['-tzf', packed[0]!.file], { encoding: 'utf8' }).trim().split('\n');
    expect(files).toEqual(expect.arrayContaining(['package/README.md', 'package/bin/pusher-conformance.js', 'package/dist/bin.js', 'package/dist/index.js', 'package/dist/index.d.ts']));
    expect(files.filter((file) => /\.test\.|\/src\/|\/test\//.test(file))).toEqual([]);
  });
});
