import { isCollection, isMap, isNode, isPair, isScalar, type Node } from 'yaml';

/**
 * Where a parsed YAML document first gives a key twice in one mapping, or
 * undefined. The yaml package can check this itself (`uniqueKeys`), but it
 * compares each new key with every earlier key of its mapping: a file with
 * 40 000 keys in one mapping took half a minute, on the live event loop at a
 * SIGHUP restart. This walk keeps a Set per mapping, so each key is looked at
 * once. Keys compare as the package's default does: scalar keys by their
 * parsed value (`1` and `"1"` differ, `null` and `~` do not), other keys
 * (collections, aliases) never equal one another. Aliases are not followed:
 * what they point to was checked where it was written. The walk uses an
 * explicit stack; yaml-depth.ts has bounded the nesting already, but a
 * mapping can be wide as well as deep.
 */
export function findDuplicateYamlKey(root: unknown, onKey?: () => void): { offset: number } | undefined {
  const stack: unknown[] = [root];
  while (stack.length) {
    const node = stack.pop();
    if (!isCollection(node)) continue;
    const seen = isMap(node) ? new Set<unknown>() : undefined;
    for (const item of node.items as unknown[]) {
      if (!isPair(item)) {
        stack.push(item);
        continue;
      }
      const key = item.key as Node | null;
      if (seen && isScalar(key) && !Number.isNaN(key.value)) {
        onKey?.();
        // A Set compares by SameValueZero, which is `===` once NaN is left out (NaN !== NaN).
        if (seen.has(key.value)) return { offset: key.range?.[0] ?? 0 };
        seen.add(key.value);
      }
      if (isNode(key)) stack.push(key);
      stack.push(item.value);
    }
  }
  return undefined;
}
