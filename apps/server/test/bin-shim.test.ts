import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

/** The package's bin, copied into throwaway package folders that differ in what dist holds. */
const shim = fileURLToPath(new URL('../bin/realtime-server.js', import.meta.url));
const folders: string[] = [];
afterAll(() => folders.forEach((folder) => rmSync(folder, { recursive: true, force: true })));

function packageWith(dist: Record<string, string> | undefined, name = 'pkg'): string {
  const root = join(mkdtempSync(join(tmpdir(), 'realtime-bin-')), name);
  folders.push(root);
  mkdirSync(join(root, 'bin'), { recursive: true });
  cpSync(shim, join(root, 'bin', 'realtime-server.js'));
  writeFileSync(join(root, 'package.json'), JSON.stringify({ name: '@org/realtime-server', type: 'module' }));
  if (dist) {
    mkdirSync(join(root, 'dist'));
    for (const [file, text] of Object.entries(dist)) writeFileSync(join(root, 'dist', file), text);
  }
  return root;
}

const run = (root: string) => spawnSync(process.execPath, [join(root, 'bin', 'realtime-server.js'), 'help'], { encoding: 'utf8' });

describe('the bin', () => {
  it('says how to build when dist/bin.js is absent, also under a path with a space', () => {
    for (const root of [packageWith(undefined), packageWith(undefined, 'with space')]) {
      const result = run(root);
      expect(result.status).toBe(1);
      expect(result.stderr).toMatch(/^realtime-server is not built: run `pnpm turbo run build/);
    }
  });

  it('runs dist/bin.js with the arguments', () => {
    const result = run(packageWith({ 'bin.js': 'process.stdout.write(`ran ${process.argv.slice(2).join(" ")}`);' }));
    expect(result.status).toBe(0);
    expect(result.stdout).toBe('ran help');
  });

  it('reports a dependency missing from an installed package as itself, never as "not built"', () => {
    const result = run(packageWith({ 'bin.js': "import 'a-dependency-that-is-not-installed';" }));
    expect(result.status).not.toBe(0);
    expect(result.stderr).toContain("Cannot find package 'a-dependency-that-is-not-installed'");
    expect(result.stderr).not.toContain('not built');
  });
});
