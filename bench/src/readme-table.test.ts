import { expect, test } from 'vitest';
import { readmeConditions, withLatestTable } from './readme-table.js';

test('a full run replaces only the block between the markers, again and again', () => {
  const readme = '# Title\n\n## Latest results\n\n<!-- latest:start (note) -->\nold table\n<!-- latest:end -->\n\n## Findings\n\n- **4. HTTP API** stays\n';
  const report = '# Benchmark results\n\nmachine line\n\n| a | b |\n\n## CPU during the window\n\n| c |\n';
  const once = withLatestTable(readme, report)!;
  expect(once).toBe(
    `# Title\n\n## Latest results\n\n<!-- latest:start (note) -->\n${readmeConditions}\n\nmachine line\n\n| a | b |\n\n#### CPU during the window\n\n| c |\n<!-- latest:end -->\n\n## Findings\n\n- **4. HTTP API** stays\n`,
  );
  expect(withLatestTable(once, report)).toBe(once);
});

test('a README without the markers is left alone', () => {
  expect(withLatestTable('# Title\n\nno markers\n', '# Benchmark results\n\n| a |\n')).toBeUndefined();
});
