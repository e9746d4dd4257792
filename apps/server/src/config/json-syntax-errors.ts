import { visit } from 'jsonc-parser';
import type { PathSegment } from './shown-keys.js';

export interface JsonSyntaxError {
  offset: number;
  /** What was expected there. */
  expected: string;
  path: PathSegment[];
}

/** What the parser waits for next, as a message says it (`comma`: after a value, in an object or an array). */
const saying = { value: 'a value (strings need double quotes)', key: 'a key in double quotes', colon: '":" after the key', end: 'the end of the file', comma: '' };
type Expecting = keyof typeof saying;

/** Nesting past which no value is read: the error says so rather than what else is wrong deeper down. */
const maxDepth = 512;
/** How much of a value that stops short (`1.`, `truex`) is valid: the error is at what follows. */
const validStart = /true|false|null|-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
/** A string's valid characters (control characters are not: JSON strings cannot hold them raw): the first one past them is its error. */
// eslint-disable-next-line no-control-regex
const stringBody = /(?:[^"\\\u0000-\u001f]|\\["\\/bfnrt]|\\u[0-9a-fA-F]{4})*/y;

class Found {
  constructor(readonly error: JsonSyntaxError) {}
}

/**
 * Where JSON.parse failed, found again with jsonc-parser (comments and
 * trailing commas refused: plain JSON), as V8's message quotes the text
 * around the error and has no position for some errors. The parser reports
 * an error at the token it could not take; its events before tell what it
 * waited for there and the key path, which the message names. Undefined when
 * the text is valid JSON after all.
 */
export function findJsonSyntaxError(text: string): JsonSyntaxError | undefined {
  const containers: { closer: '}' | ']'; index: number }[] = [];
  const path: PathSegment[] = [];
  let expecting: Expecting = 'value';
  // Where a value after `:` or `,` starts, for the nesting limit: right after the separator.
  let valueStart: number | undefined;

  const stop = (offset: number, expected = expecting === 'comma' ? `"," or "${containers.at(-1)?.closer}" after the value` : saying[expecting]): never => {
    throw new Found({ offset: Math.min(offset, text.length), expected, path: [...path] });
  };
  const startValue = (offset: number) => {
    if (containers.length > maxDepth) stop(valueStart ?? offset, 'less nesting');
  };
  const valueDone = () => {
    if (containers.length > 0) path.pop();
    expecting = containers.length > 0 ? 'comma' : 'end';
  };
  const open = (offset: number, closer: '}' | ']') => {
    startValue(offset);
    containers.push({ closer, index: 0 });
    if (closer === ']') path.push(0);
    expecting = closer === '}' ? 'key' : 'value';
    valueStart = undefined;
  };
  // An end event comes for a collection left open too (at the end of the text): its error follows.
  const close = (offset: number) => {
    if (text[offset] !== containers.at(-1)?.closer) return;
    if (expecting === 'value') path.pop();
    containers.pop();
    valueDone();
  };
  const stringError = (quote: number) => {
    stringBody.lastIndex = quote + 1;
    stringBody.test(text);
    const at = stringBody.lastIndex;
    if (at >= text.length) stop(quote, 'a closing quote');
    if (text[at] === '\\') stop(at, text[at + 1] === 'u' ? 'a valid \\u escape' : 'a valid escape sequence');
    if (text[at] !== '"') stop(at, 'a closing quote (strings cannot span lines)');
  };

  try {
    visit(
      text,
      {
        onObjectBegin: (offset) => open(offset, '}'),
        onArrayBegin: (offset) => open(offset, ']'),
        onObjectEnd: close,
        onArrayEnd: close,
        // The key as written (escapes and all): it is shown only if it is a config word.
        onObjectProperty: (_key, offset, length) => {
          path.push(text.slice(offset + 1, offset + length - 1));
          expecting = 'colon';
        },
        onSeparator: (separator, offset) => {
          valueStart = offset + 1;
          const container = containers.at(-1)!;
          if (separator === ',' && container.closer === ']') path.push(++container.index);
          expecting = separator === ',' && container.closer === '}' ? 'key' : 'value';
        },
        onLiteralValue: (_value, offset) => {
          startValue(offset);
          valueDone();
        },
        onError: (_code, offset) => {
          if (expecting === 'value') startValue(offset);
          if ((expecting === 'key' || expecting === 'value') && text[offset] === '"') stringError(offset);
          validStart.lastIndex = offset;
          if (expecting === 'value' && validStart.test(text)) {
            valueDone();
            stop(validStart.lastIndex);
          }
          stop(offset);
        },
      },
      { disallowComments: true, allowTrailingComma: false, allowEmptyContent: false },
    );
    return undefined;
  } catch (error) {
    if (error instanceof Found) return error.error;
    throw error;
  }
}
