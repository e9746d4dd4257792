import { formatPath, type PathSegment } from './shown-keys.js';

/**
 * Where in a config file a syntax error is, without quoting the file:
 * `line 4, column 7 (in applications.0.secret)`, lines and columns from 1.
 */
export function describePosition(text: string, offset: number, path: readonly PathSegment[]): string {
  const before = text.slice(0, Math.max(0, Math.min(offset, text.length)));
  const lineStart = before.lastIndexOf('\n') + 1;
  const line = before.split('\n').length;
  const column = before.length - lineStart + 1;
  return `line ${line}, column ${column}${path.length ? ` (in ${formatPath(path)})` : ''}`;
}
