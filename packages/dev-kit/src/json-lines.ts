/** One parsed JSON log line (pino and friends write one object a line). */
export type JsonLine = Record<string, unknown>;

/** The line as an object when it is a JSON object, else undefined (plain text, a half line, an array). */
export function parseJsonLine(line: string): JsonLine | undefined {
  if (!line.startsWith('{')) return undefined;
  try {
    const value: unknown = JSON.parse(line);
    return typeof value === 'object' && value !== null ? (value as JsonLine) : undefined;
  } catch {
    return undefined;
  }
}
