import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** The daemon's README: the host app guides' snippets are read from it, so a test runs what readers copy. */
export const serverReadme = fileURLToPath(new URL('../../../README.md', import.meta.url));

/**
 * The fenced code block right after `<!-- tested: {name} -->` in the README
 * (the marker is invisible once rendered). Throws unless there is exactly one
 * such marker, so renaming or dropping a tested snippet fails its test.
 */
export function readmeBlock(name: string, readme = readFileSync(serverReadme, 'utf8')): string {
  const marker = `<!-- tested: ${name} -->`;
  const first = readme.indexOf(marker);
  if (first === -1) throw new Error(`README has no "${marker}"`);
  if (readme.indexOf(marker, first + marker.length) !== -1) throw new Error(`README has "${marker}" twice`);
  const block = /^\s*(`{3,})[^\n]*\n([\s\S]*?)\n\1[ \t]*$/m.exec(readme.slice(first + marker.length));
  if (!block || readme.slice(first + marker.length, first + marker.length + block.index).trim() !== '') {
    throw new Error(`"${marker}" is not followed by a fenced code block`);
  }
  return `${block[2]}\n`;
}

/**
 * Replaces each `from` with `to`, each of which must occur exactly once: the
 * only edits a test makes to a README snippet (ports, paths, certificate
 * files, timeouts), so any other change to the snippet is tested as written.
 */
export function substituteExactlyOnce(text: string, replacements: [from: string, to: string][]): string {
  let result = text;
  for (const [from, to] of replacements) {
    const count = result.split(from).length - 1;
    if (count !== 1) throw new Error(`expected "${from}" exactly once in the README snippet, found it ${count} times`);
    result = result.replace(from, () => to);
  }
  return result;
}

/** A `.env` block as Laravel's dotenv reads it: `KEY=value`, quotes removed, `${OTHER}` expanded. */
export function parseDotEnv(text: string): Record<string, string> {
  const env: Record<string, string> = {};
  for (const line of text.split('\n')) {
    const match = /^([A-Z0-9_]+)=(.*)$/.exec(line.trim());
    if (!match) continue;
    const [, key = '', raw = ''] = match;
    const unquoted = /^"(.*)"$/.exec(raw)?.[1] ?? raw;
    env[key] = unquoted.replace(/\$\{([A-Z0-9_]+)\}/g, (_, name: string) => env[name] ?? '');
  }
  return env;
}
