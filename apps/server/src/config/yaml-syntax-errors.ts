import { isMap, isNode, isScalar, isSeq } from 'yaml';
import { isSchemaKey, type PathSegment } from './shown-keys.js';

/** Fixed descriptions of the yaml package's error codes (its messages may quote the text). */
const yamlProblems: Partial<Record<string, string>> = {
  BAD_INDENT: 'bad indentation, or an unclosed { or [',
  TAB_AS_INDENT: 'a tab used as indentation (use spaces)',
  BLOCK_AS_IMPLICIT_KEY: 'a nested mapping where a plain value was expected (quote values that contain ": ")',
  MISSING_CHAR: 'a missing closing quote or bracket',
  BAD_DQ_ESCAPE: 'an invalid escape sequence in a double-quoted string',
  DUPLICATE_KEY: 'a key given twice',
  MULTILINE_IMPLICIT_KEY: 'a key that spans several lines, or a missing ":"',
  UNEXPECTED_TOKEN: 'an unexpected character',
  BAD_SCALAR_START: 'a plain value that starts with a reserved character (quote it)',
  BLOCK_IN_FLOW: 'block syntax inside { } or [ ]',
  MULTIPLE_DOCS: 'more than one YAML document',
  KEY_OVER_1024_CHARS: 'a key longer than 1024 characters',
  BAD_ALIAS: 'an invalid alias (*name)',
  ALIAS_PROPS: 'an alias (*name) with an anchor or tag',
  BAD_DIRECTIVE: 'an invalid % directive',
  BAD_PROP_ORDER: 'an anchor or tag in the wrong place',
  MULTIPLE_ANCHORS: 'several anchors on one value',
  MULTIPLE_TAGS: 'several tags on one value',
  NON_STRING_KEY: 'a key that is not a string',
  BAD_COLLECTION_TYPE: 'a tag that does not fit its collection',
  RESOURCE_EXHAUSTION: 'too many aliases',
};

export function describeYamlProblem(code: string): string {
  return yamlProblems[code] ?? 'a syntax error';
}

/** The key path to the pair around `offset` in a (possibly partial) YAML document. */
export function yamlPathAt(node: unknown, offset: number, path: PathSegment[] = [], depth = 0): PathSegment[] {
  if (depth > 100) return path;
  if (isMap(node)) {
    let hit: (typeof node.items)[number] | undefined;
    for (const pair of node.items) {
      const start = isNode(pair.key) ? pair.key.range?.[0] : undefined;
      if (start !== undefined && start <= offset) hit = pair;
    }
    if (!hit) return path;
    const key = isScalar(hit.key) && (typeof hit.key.value === 'string' || typeof hit.key.value === 'number') ? String(hit.key.value) : '*';
    // Keys of a partial document may be text that was meant as a value: only the schema's are named.
    const next = [...path, isSchemaKey(key) ? key : '*'];
    const value = hit.value;
    return isNode(value) && value.range && value.range[0] <= offset ? yamlPathAt(value, offset, next, depth + 1) : next;
  }
  if (isSeq(node)) {
    let index = -1;
    node.items.forEach((item, i) => {
      const start = isNode(item) ? item.range?.[0] : undefined;
      if (start !== undefined && start <= offset) index = i;
    });
    return index < 0 ? path : yamlPathAt(node.items[index], offset, [...path, index], depth + 1);
  }
  return path;
}
