import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { allCases } from '../src/cases/index.js';

const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');

describe('the README', () => {
  it('lists every case with its documentation section', () => {
    for (const entry of allCases) {
      const row = readme.split('\n').find((line) => line.startsWith(`| \`${entry.id.slice(entry.group.length + 1)}\` | ${entry.title.slice(0, 30)}`));
      expect(row, entry.id).toBeDefined();
      if (!entry.extension) expect(row, entry.id).toContain(`(https://pusher.com/docs/${entry.docs})`);
    }
  });

  it('names every option of the CLI', async () => {
    const { usage } = await import('../src/cli.js');
    const flags = new Set([...usage.matchAll(/--[a-z0-9-]+/g)].map(([flag]) => flag));
    for (const flag of flags) if (flag !== '--help' && !/-(id|key|secret)$/.test(flag)) expect(readme, flag).toContain(`\`${flag}`);
  });
});
