import type { ConformanceCase } from './case.js';
import { ConformanceError } from './errors.js';
import { groupNames } from './groups.js';

/**
 * The cases `only` and `exclude` leave (each a list of group names or case ids), in their order.
 * An unknown name is an error naming the flag, so a typo never runs nothing silently.
 */
export function selectCases(cases: readonly ConformanceCase[], only: readonly string[], exclude: readonly string[]): ConformanceCase[] {
  const known = new Set<string>([...groupNames, ...cases.map((entry) => entry.id)]);
  for (const [flag, names] of [['--only', only], ['--exclude', exclude]] as const) {
    const unknown = names.filter((name) => !known.has(name));
    if (unknown.length > 0) {
      throw new ConformanceError('INVALID_OPTIONS', `${flag}: ${unknown.map((name) => `"${name}"`).join(', ')} is neither a group (${groupNames.join(', ')}) nor a case id (see --list)`);
    }
  }
  const named = (entry: ConformanceCase, names: readonly string[]) => names.includes(entry.group) || names.includes(entry.id);
  return cases.filter((entry) => (only.length === 0 || named(entry, only)) && !named(entry, exclude));
}
