import { foldCode } from './case-fold.js';

/**
 * A fixed set of strings found in a text in one pass, case-insensitively
 * (Aho–Corasick). The automaton is built from the strings reversed and run
 * from the end of the text to its start, so at each position it knows the
 * longest string that *starts* there: what a leftmost-longest cut needs.
 *
 * Time: building is O(P log P) for P characters of strings, a scan is
 * O(n log σ) for n characters of text (σ: the branching of a trie node),
 * whatever the strings and the text hold. A regex alternation of the
 * strings backtracks instead: a text of `aaaa…` against a secret `aaaa…b`
 * costs the secret's length at every position.
 *
 * The trie is kept in typed arrays (children of a node sorted by code unit,
 * found by binary search), not in a Map per node: a configuration with
 * thousands of apps gives hundreds of thousands of nodes.
 */
export class PatternSet {
  /** First child edge of each node; its edges run to `edgeStart[node + 1]`. */
  readonly #edgeStart: Int32Array;
  readonly #edgeCode: Uint16Array;
  readonly #edgeTarget: Int32Array;
  readonly #fail: Int32Array;
  /** The length of the longest string that ends at this node or at one of its suffix links; 0 if none. */
  readonly #longest: Int32Array;
  readonly #shortest: number;

  private constructor(patterns: readonly string[]) {
    // Sorted, so that a trie can be grown along the previous string and children come in code order.
    const sorted = [...new Set(patterns.map(reversedFolded))].sort();
    // Typed arrays sized by a first pass, not growing arrays of numbers: many long strings (candidates from
    // a hostile file) make millions of nodes, and growing arrays cost several times their memory and time.
    let nodes = 1;
    sorted.forEach((pattern, index) => (nodes += pattern.length - commonPrefix(sorted[index - 1] ?? '', pattern)));
    const parent = new Int32Array(nodes);
    const code = new Uint16Array(nodes);
    const depth = new Int32Array(nodes);
    const terminal = new Uint8Array(nodes);
    parent[0] = -1;
    // The nodes along the previous string, overwritten from where the next one leaves it.
    const path = new Int32Array(sorted.reduce((longest, pattern) => Math.max(longest, pattern.length), 0) + 1);
    let made = 1;
    sorted.forEach((pattern, index) => {
      for (let i = commonPrefix(sorted[index - 1] ?? '', pattern); i < pattern.length; i++) {
        parent[made] = path[i]!;
        code[made] = pattern.charCodeAt(i);
        depth[made] = i + 1;
        path[i + 1] = made++;
      }
      terminal[path[pattern.length]!] = 1;
    });
    this.#edgeStart = new Int32Array(nodes + 1);
    for (let node = 1; node < nodes; node++) this.#edgeStart[parent[node]! + 1]!++;
    for (let node = 0; node < nodes; node++) this.#edgeStart[node + 1]! += this.#edgeStart[node]!;
    this.#edgeCode = new Uint16Array(Math.max(0, nodes - 1));
    this.#edgeTarget = new Int32Array(Math.max(0, nodes - 1));
    const filled = this.#edgeStart.slice(0, nodes);
    // Nodes were made in pre-order of sorted strings: each node's children come in rising code order.
    for (let node = 1; node < nodes; node++) {
      const slot = filled[parent[node]!]!++;
      this.#edgeCode[slot] = code[node]!;
      this.#edgeTarget[slot] = node;
    }
    this.#fail = new Int32Array(nodes);
    this.#longest = new Int32Array(nodes);
    // Suffix links in breadth-first order: a node's link is known once every shallower node's is.
    for (const node of byDepth(depth)) {
      if (node === 0) continue;
      let link = this.#fail[parent[node]!]!;
      if (parent[node] === 0) link = 0;
      else {
        for (;;) {
          const next = this.#child(link, code[node]!);
          if (next >= 0) {
            link = next;
            break;
          }
          if (link === 0) break;
          link = this.#fail[link]!;
        }
      }
      this.#fail[node] = link;
      this.#longest[node] = terminal[node] ? depth[node]! : this.#longest[link]!;
    }
    this.#shortest = sorted.reduce((shortest, pattern) => Math.min(shortest, pattern.length), Infinity);
  }

  /** Undefined for no (non-empty) strings: nothing to look for. */
  static of(patterns: Iterable<string>): PatternSet | undefined {
    const list = [...patterns].filter((pattern) => pattern.length > 0);
    return list.length ? new PatternSet(list) : undefined;
  }

  /** `text` with each string of the set replaced by `marker`: leftmost first, and the longest of those starting at one place. */
  replaceIn(text: string, marker: string): string {
    if (text.length < this.#shortest) return text;
    const longest = new Int32Array(text.length);
    this.mergeLongest(text, longest);
    return cutLongest(text, longest, marker);
  }

  /**
   * Raises `longest[i]` to the length of the longest string of the set starting
   * at `text[i]`: several sets merged this way find what one set of all their
   * strings would (what cutSecrets builds one at a time).
   */
  mergeLongest(text: string, longest: Int32Array): void {
    if (text.length < this.#shortest) return;
    let state = 0;
    for (let i = text.length - 1; i >= 0; i--) {
      state = this.#step(state, foldCode(text.charCodeAt(i)));
      if (this.#longest[state]! > longest[i]!) longest[i] = this.#longest[state]!;
    }
  }

  /** Whether any string of the set occurs in `text`. */
  occursIn(text: string): boolean {
    if (text.length < this.#shortest) return false;
    let state = 0;
    for (let i = text.length - 1; i >= 0; i--) {
      state = this.#step(state, foldCode(text.charCodeAt(i)));
      if (this.#longest[state]! > 0) return true;
    }
    return false;
  }

  #step(state: number, code: number): number {
    for (;;) {
      const next = this.#child(state, code);
      if (next >= 0) return next;
      if (state === 0) return 0;
      state = this.#fail[state]!;
    }
  }

  #child(node: number, code: number): number {
    let low = this.#edgeStart[node]!;
    let high = this.#edgeStart[node + 1]! - 1;
    while (low <= high) {
      const middle = (low + high) >>> 1;
      const found = this.#edgeCode[middle]!;
      if (found === code) return this.#edgeTarget[middle]!;
      if (found < code) low = middle + 1;
      else high = middle - 1;
    }
    return -1;
  }
}

/** `text` with a cut at each place `longest` says a string starts (its length there), leftmost first: `marker` for each. */
export function cutLongest(text: string, longest: Int32Array, marker: string): string {
  let result = '';
  let copied = 0;
  for (let i = 0; i < text.length; ) {
    const length = longest[i]!;
    if (length === 0) {
      i++;
      continue;
    }
    result += `${text.slice(copied, i)}${marker}`;
    i += length;
    copied = i;
  }
  return copied === 0 ? text : result + text.slice(copied);
}

/** `text` folded and reversed by code unit, made from code arrays: adding a character at a time to a string is slow for long ones. */
function reversedFolded(text: string): string {
  const codes = new Uint16Array(text.length);
  for (let i = 0; i < text.length; i++) codes[text.length - 1 - i] = foldCode(text.charCodeAt(i));
  let result = '';
  // apply takes any array-like, so the typed array is passed as it is (a spread would copy it into an array first).
  for (let start = 0; start < codes.length; start += chunk) result += String.fromCharCode.apply(null, codes.subarray(start, start + chunk) as unknown as number[]);
  return result;
}

/** Code units passed to one String.fromCharCode call (its arguments go on the stack). */
const chunk = 8_192;

/** How many code units `a` and `b` share at their start. */
function commonPrefix(a: string, b: string): number {
  let common = 0;
  while (common < a.length && common < b.length && a.charCodeAt(common) === b.charCodeAt(common)) common++;
  return common;
}

/** Node numbers ordered by depth (a counting sort: depths are small integers). */
function byDepth(depth: Int32Array): Int32Array {
  const maxDepth = depth.reduce((max, d) => Math.max(max, d), 0);
  const start = new Int32Array(maxDepth + 2);
  for (const d of depth) start[d + 1]!++;
  for (let d = 0; d <= maxDepth; d++) start[d + 1]! += start[d]!;
  const order = new Int32Array(depth.length);
  depth.forEach((d, node) => {
    order[start[d]!++] = node;
  });
  return order;
}
