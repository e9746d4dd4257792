import { Parser, type CST } from 'yaml';

/** Deepest nesting of collections a config file may have; a real one has 8 at most. */
export const maxYamlDepth = 64;

/**
 * Where a YAML text first nests collections deeper than `limit`, or
 * undefined. The yaml package composes documents recursively, and a few
 * hundred levels (`[[[[...`, `- - - ...`: a 2 KB file) can crash the process
 * outright (a V8 fatal error, not an exception) when it parses them twice, as
 * a restart does. Its CST parser keeps an explicit stack, and so does this
 * walk: the depth is measured without recursion, before anything composes.
 */
export function yamlTooDeep(text: string, limit = maxYamlDepth): { offset: number } | undefined {
  const stack: { token: CST.Token | undefined; depth: number }[] = [];
  for (const token of new Parser().parse(text)) stack.push({ token, depth: 0 });
  while (stack.length) {
    const { token, depth } = stack.pop()!;
    if (!token) continue;
    if (token.type === 'document') {
      stack.push({ token: token.value, depth });
    } else if (token.type === 'block-map' || token.type === 'block-seq' || token.type === 'flow-collection') {
      if (depth + 1 > limit) return { offset: token.offset };
      for (const item of token.items) {
        if ('key' in item && item.key) stack.push({ token: item.key, depth: depth + 1 });
        if ('value' in item && item.value) stack.push({ token: item.value, depth: depth + 1 });
      }
    }
  }
  return undefined;
}
