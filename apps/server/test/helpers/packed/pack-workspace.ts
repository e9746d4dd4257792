import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { PackedPackage } from './scope-registry.js';

const repoRoot = fileURLToPath(new URL('../../../../../', import.meta.url));

interface WorkspacePackage {
  readonly dir: string;
  readonly manifest: { name: string; private?: boolean; dependencies?: Record<string, string> };
}

function workspacePackages(): Map<string, WorkspacePackage> {
  const found = new Map<string, WorkspacePackage>();
  for (const parent of ['packages', 'apps']) {
    for (const entry of readdirSync(join(repoRoot, parent), { withFileTypes: true })) {
      if (!entry.isDirectory()) continue;
      const dir = join(repoRoot, parent, entry.name);
      try {
        const manifest = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as WorkspacePackage['manifest'];
        found.set(manifest.name, { dir, manifest });
      } catch {
        // a folder without a package.json is not a package
      }
    }
  }
  return found;
}

/** `name` and every workspace package it needs at run time (its `dependencies`, transitively). */
export function runtimeClosure(name: string): WorkspacePackage[] {
  const all = workspacePackages();
  const closure = new Map<string, WorkspacePackage>();
  const visit = (packageName: string) => {
    const pkg = all.get(packageName);
    if (!pkg || closure.has(packageName)) return;
    closure.set(packageName, pkg);
    for (const dependency of Object.keys(pkg.manifest.dependencies ?? {})) visit(dependency);
  };
  visit(name);
  return [...closure.values()];
}

/** How this test process can run pnpm: the pnpm that runs the tests, else the pinned one through npx. */
function pnpmCommand(): [string, string[]] {
  const execPath = process.env['npm_execpath'];
  if (execPath && /pnpm/.test(execPath)) return [process.execPath, [execPath]];
  const pinned = (JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')) as { packageManager: string }).packageManager;
  return ['npx', ['--yes', pinned]];
}

/** Packs each package with `pnpm pack` (which turns `workspace:*` into the version) into `destination`. */
export function packAll(packages: readonly WorkspacePackage[], destination: string): PackedPackage[] {
  const [command, prefix] = pnpmCommand();
  return packages.map((pkg) => {
    const output = execFileSync(command, [...prefix, 'pack', '--json', '--pack-destination', destination], { cwd: pkg.dir, encoding: 'utf8' });
    // pnpm prints the JSON report last; anything before it is npm's or pnpm's chatter.
    const report = JSON.parse(output.slice(output.indexOf('{'))) as { filename: string };
    const file = report.filename.startsWith('/') ? report.filename : join(destination, report.filename);
    const manifest = JSON.parse(
      execFileSync('tar', ['-xOzf', file, 'package/package.json'], { encoding: 'utf8' }),
    ) as PackedPackage['manifest'];
    return { file, manifest };
  });
}

