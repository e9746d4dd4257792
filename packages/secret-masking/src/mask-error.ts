/** The fields of an error kept on its masked copy: the network stack's diagnostics, never its sockets or request options. */
const keptFields = ['code', 'errno', 'syscall', 'address', 'port', 'hostname', 'statusCode'];
/** Causes and aggregated errors are followed this deep, and this many aggregated errors are kept. */
const maxDepth = 4;
const maxErrors = 8;

/**
 * A copy of an error (and its `cause` / AggregateError chain) whose message,
 * stack and string fields went through `mask`. A string is masked as it is;
 * other non-objects are returned as they are.
 */
export function maskError(error: unknown, mask: (text: string) => string, depth = 0): unknown {
  if (typeof error === 'string') return mask(error);
  if (typeof error !== 'object' || error === null) return error;
  if (depth > maxDepth) return undefined;
  const source = error as Record<string, unknown> & { message?: unknown; name?: unknown; stack?: unknown; cause?: unknown; errors?: unknown };
  const message = typeof source.message === 'string' ? source.message : safeString(error);
  const copy = new Error(mask(message)) as Error & Record<string, unknown>;
  Object.defineProperty(copy, 'name', { value: typeof source.name === 'string' ? source.name : 'Error', configurable: true, writable: true });
  copy.stack = typeof source.stack === 'string' ? mask(source.stack) : `${copy.name}: ${copy.message}`;
  for (const key of keptFields) {
    const value = source[key];
    if (typeof value === 'string') copy[key] = mask(value);
    else if (typeof value === 'number') copy[key] = value;
  }
  if (source.cause !== undefined) {
    Object.defineProperty(copy, 'cause', { value: maskError(source.cause, mask, depth + 1), configurable: true, writable: true });
  }
  if (Array.isArray(source.errors)) {
    Object.defineProperty(copy, 'errors', {
      value: source.errors.slice(0, maxErrors).map((inner) => maskError(inner, mask, depth + 1)),
      configurable: true,
      writable: true,
    });
  }
  return copy;
}

/** `String(value)`, or a placeholder for a value whose conversion throws (a hostile `toString`). */
export function safeString(value: unknown): string {
  try {
    return String(value);
  } catch {
    return '[unprintable]';
  }
}
