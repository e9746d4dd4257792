import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { packageRoot } from './harness.js';

/**
 * The bell takes its wire types from @org/notifications/contract, a devDependency: the published
 * declarations must carry them inlined, or users' type checks would meet an import they cannot resolve.
 */
describe('published type declarations', () => {
  it('import nothing but lit (the contract types are inlined)', () => {
    const dist = join(packageRoot, 'dist');
    expect(existsSync(dist), 'run the package build first').toBe(true);
    const declarations = readdirSync(dist).filter((name) => name.endsWith('.d.ts'));
    expect(declarations.length).toBeGreaterThan(0);
    const imported = new Set<string>();
    for (const name of declarations) {
      for (const match of readFileSync(join(dist, name), 'utf8').matchAll(/^(?:import|export)\b[^'"]*['"]([^'"]+)['"]/gm)) imported.add(match[1]!);
    }
    expect([...imported].filter((specifier) => !specifier.startsWith('./') && specifier !== 'lit')).toEqual([]);
    expect([...imported].filter((specifier) => specifier.startsWith('./dist'))).toEqual([]);
    expect(declarations.some((name) => readFileSync(join(dist, name), 'utf8').includes('interface NotificationResource'))).toBe(true);
  });
});
