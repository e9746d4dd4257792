/**
 * Build step for the self-contained bundle: esbuild minifies JavaScript but
 * leaves the text of lit's css`…` templates as written (indentation, comments,
 * spaces after every colon). This shrinks that text without changing what the
 * browser parses (test/embed.test.ts compares the parsed rules of both builds).
 */
import { readFileSync } from 'node:fs';
import type { Plugin } from 'esbuild';

/** A quoted CSS string, kept byte for byte. */
const STRING = String.raw`"(?:[^"\\\n]|\\[\s\S])*"|'(?:[^'\\\n]|\\[\s\S])*'`;
/** Comments and strings in one pass, so an apostrophe inside a comment is not taken for the start of a string. */
const COMMENT_OR_STRING = new RegExp(String.raw`/\*[\s\S]*?\*/|${STRING}`, 'g');
const SPLIT_STRINGS = new RegExp(`(${STRING})`);

/**
 * Drops comments, collapses whitespace, and drops spaces where CSS never needs
 * them: around `{ } ; >`, before `,` and after `:`. It keeps the space after a
 * comma (inside var() the browser keeps a fallback's tokens as written), leaves
 * `+`, `-`, `~` and `/` alone (calc() and shorthands need their spaces), and
 * never touches a space before `:` (`.a :hover` differs from `.a:hover`).
 * Strings are kept as they are.
 */
export function minifyCss(text: string): string {
  const withoutComments = text.replace(COMMENT_OR_STRING, (token) => (token.startsWith('/*') ? ' ' : token));
  return withoutComments
    .split(SPLIT_STRINGS)
    .map((part, index) =>
      index % 2 === 1
        ? part
        : part
            .replace(/\s+/g, ' ')
            .replace(/ ?([{};>]) ?/g, '$1')
            .replace(/ ,/g, ',')
            .replace(/: /g, ':')
            .replace(/;}/g, '}'),
    )
    .join('')
    .trim();
}

/**
 * css`…` templates without `${}` interpolations and without escapes that
 * matter to JavaScript (a backslash is left alone: its meaning differs between
 * the template and CSS).
 */
const CSS_TEMPLATE = /\bcss`([^`$\\]*)`/g;

export function minifyCssTemplates(source: string): string {
  return source.replace(CSS_TEMPLATE, (_whole, body: string) => `css\`${minifyCss(body)}\``);
}

/** esbuild plugin: minifies css`…` templates in the package's own TypeScript sources. */
export const minifyCssTemplatesPlugin: Plugin = {
  name: 'minify-css-templates',
  setup(build) {
    build.onLoad({ filter: /[\\/]src[\\/].*\.ts$/ }, (args) => {
      const source = readFileSync(args.path, 'utf8');
      if (!source.includes('css`')) return undefined;
      return { contents: minifyCssTemplates(source), loader: 'ts' };
    });
  },
};
