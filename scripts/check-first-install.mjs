// The first install a new user does, replayed on a copy of this checkout: `pnpm install
// --frozen-lockfile`, offline from the store the real install filled. It fails on any
// warning the install prints (a bin whose file does not exist yet, a build script nobody
// decided about, a pnpm setting npm does not know) and on a workspace bin it did not link.
// Run with `node scripts/check-first-install.mjs` (the root `first-install` script).
import { execFileSync, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const repoRoot = join(dirname(fileURLToPath(import.meta.url)), '..');

/** The lines of an install's output that warn about something; npm's and pnpm's spellings. */
export function installWarnings(output) {
  return output
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => /\bWARN\b|^npm warn\b|Ignored build scripts|Failed to create bin|ERR_PNPM/i.test(line));
}

/** Every workspace package's bins, as `<package dir>/node_modules/.bin/<name>` for each package that depends on it. */
export function expectedBinLinks(packages) {
  const byName = new Map(packages.map((pkg) => [pkg.manifest.name, pkg]));
  const links = [];
  for (const pkg of packages) {
    const dependencies = { ...pkg.manifest.dependencies, ...pkg.manifest.devDependencies };
    for (const name of Object.keys(dependencies)) {
      const target = byName.get(name);
      const bin = target?.manifest.bin;
      if (!bin) continue;
      const names = typeof bin === 'string' ? [name.split('/').pop()] : Object.keys(bin);
      for (const binName of names) links.push(join(pkg.dir, 'node_modules', '.bin', binName));
    }
  }
  return links;
}

function workspacePackages(root) {
  const listed = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard', '-z', '--', '*package.json'], { cwd: root, encoding: 'utf8' });
  return listed
    .split('\0')
    .filter((path) => path.endsWith('package.json') && !path.includes('node_modules') && path !== 'package.json')
    .filter((path) => existsSync(join(root, path)))
    .map((path) => ({ dir: join(root, dirname(path)), manifest: JSON.parse(readFileSync(join(root, path), 'utf8')) }));
}

/** pnpm as this run has it: the one running the script, else the pinned version through npx. */
function pnpmCommand() {
  const execPath = process.env.npm_execpath;
  if (execPath && /pnpm/.test(execPath)) return [process.execPath, [execPath]];
  const { packageManager } = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8'));
  return ['npx', ['--yes', packageManager]];
}

function copyCheckout(destination) {
  const files = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard', '-z'], { cwd: repoRoot, encoding: 'utf8' }).split('\0');
  for (const file of files) {
    if (file === '') continue;
    mkdirSync(dirname(join(destination, file)), { recursive: true });
    try {
      cpSync(join(repoRoot, file), join(destination, file));
    } catch (error) {
      // Deleted in the working tree, or a build's temporary file (tsup's bundled config, attw's
      // npm pack tarball) that turbo's concurrent tasks removed after `git ls-files` listed it.
      if (error.code !== 'ENOENT') throw error;
    }
  }
}

function main() {
  const [command, prefix] = pnpmCommand();
  const storeDir = execFileSync(command, [...prefix, 'store', 'path'], { cwd: repoRoot, encoding: 'utf8' }).trim();
  const copy = mkdtempSync(join(tmpdir(), 'first-install-'));
  try {
    copyCheckout(copy);
    // The user's own npm configuration is not ours to check: an empty one, and none of the variables of this run.
    const userConfig = join(copy, '.user-npmrc');
    writeFileSync(userConfig, '');
    const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !/^(npm|pnpm)_/i.test(name)));
    const result = spawnSync(command, [...prefix, 'install', '--frozen-lockfile', '--offline', '--store-dir', storeDir], {
      cwd: copy,
      env: { ...env, NPM_CONFIG_USERCONFIG: userConfig, CI: 'true' },
      encoding: 'utf8',
      timeout: 300_000,
    });
    const output = `${result.stdout ?? ''}\n${result.stderr ?? ''}`;
    const problems = installWarnings(output);
    if (result.status !== 0) problems.push(`pnpm install exited with ${result.status ?? result.signal}`);
    for (const link of expectedBinLinks(workspacePackages(repoRoot))) {
      const relative = link.slice(repoRoot.length).replace(/^\//, '');
      if (!existsSync(join(copy, relative))) problems.push(`no bin link ${relative}`);
    }
    if (problems.length > 0) {
      process.stderr.write(`first install of a fresh checkout is not clean:\n  ${problems.join('\n  ')}\n\nfull output:\n${output}\n`);
      process.exitCode = 1;
      return;
    }
    process.stdout.write('first install of a fresh checkout: no warnings, every workspace bin linked\n');
  } finally {
    rmSync(copy, { recursive: true, force: true });
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) main();
