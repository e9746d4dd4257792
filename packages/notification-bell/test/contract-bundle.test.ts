/*
 * The bell inlines what it uses of @org/notifications/contract and @org/backoff (both
 * devDependencies) and nothing else of those packages: no PGlite, zod, hono or @org/protocol
 * reaches a page. Checked on the real built files through their source maps, which name every
 * module each file was made from (the contract's own maps lead back to its sources).
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BROWSER_CHUNK, BROWSER_DIR, BROWSER_FILE, BROWSER_PUSHER_FILE } from '../tsup.config.js';
import { packageRoot } from './harness.js';

const dist = join(packageRoot, 'dist');
const browserDir = join(packageRoot, BROWSER_DIR);

/** Every module a built file was made from, except this package's own sources and the split's shared-chunk markers. */
function foreignSources(mapFile: string): string[] {
  const { sources } = JSON.parse(readFileSync(mapFile, 'utf8')) as { sources: string[] };
  return sources.filter((source) => !source.startsWith('shared-chunk:') && !/^(?:\.\.\/)+src\//.test(source));
}

const maps = (dir: string) => readdirSync(dir).filter((file) => file.endsWith('.js.map') && file !== `${BROWSER_PUSHER_FILE}.map`);

/** What a page may get besides the bell's own code (pusher-js, the optional peer, is its own file). */
const ALLOWED = [
  /\/node_modules\/(?:lit-html|lit-element|@lit\/reactive-element)\/src\/[\w/-]+\.ts$/,
  /(?:^|\/)notifications\/src\/contract\/[\w-]+\.ts$/,
  /(?:^|\/)backoff\/src\/backoff\.ts$/,
];

describe('what the bell takes from other packages', () => {
  it('installs lit only: the contract and the backoff are inlined, not dependencies', () => {
    const pkg = JSON.parse(readFileSync(join(packageRoot, 'package.json'), 'utf8')) as { dependencies: Record<string, string>; devDependencies: Record<string, string> };
    expect(Object.keys(pkg.dependencies)).toEqual(['lit']);
    expect(pkg.devDependencies).toHaveProperty('@org/notifications');
    expect(pkg.devDependencies).toHaveProperty('@org/backoff');
  });

  it.each([
    ['the self-contained build', browserDir],
    ['the package build', dist],
  ])('%s: lit, the contract modules and @org/backoff only (no PGlite, zod, hono, @org/protocol)', (_, dir) => {
    expect(existsSync(dir), `${dir}: run the build first`).toBe(true);
    const foreign = [...new Set(maps(dir).flatMap((file) => foreignSources(join(dir, file))))];
    expect(foreign.filter((source) => /pglite|\/zod\/|\/hono\/|protocol\/(?:src|dist)\//.test(source))).toEqual([]);
    expect(foreign.filter((source) => !ALLOWED.some((allowed) => allowed.test(source)))).toEqual([]);
    expect(foreign.some((source) => source.endsWith('notifications/src/contract/routes.ts'))).toBe(true);
  });

  it('splits the contract by module: routes and the URL rule in the closed-bell file, live event names with the transports', () => {
    const transports = readdirSync(browserDir).find((file) => BROWSER_CHUNK.transports.test(file)) ?? '';
    const contractModules = (file: string) =>
      foreignSources(join(browserDir, `${file}.map`))
        .map((source) => /notifications\/src\/contract\/([\w-]+)\.ts$/.exec(source)?.[1])
        .filter((name): name is string => name !== undefined)
        .sort();
    expect(contractModules(BROWSER_FILE)).toEqual(['headers', 'routes', 'safe-url']);
    expect(contractModules(transports)).toEqual(['live-events']);
  });
});
