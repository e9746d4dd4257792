import { PusherApiError } from '../errors.js';
import { parseInfo } from '../request-body.js';

/** Parses the `info` query parameter, refusing attributes the endpoint does not know. */
export function infoAttributes(query: ReadonlyMap<string, string>, known: readonly string[]): string[] {
  const attributes = parseInfo(query.get('info'));
  for (const attribute of attributes) {
    if (!known.includes(attribute)) {
      throw new PusherApiError('INVALID_FIELD', `"info" has unknown attribute ${JSON.stringify(attribute)}; expected ${known.join(', ')}`);
    }
  }
  return attributes;
}
