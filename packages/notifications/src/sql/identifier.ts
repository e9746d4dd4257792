import { NotificationsError } from '../errors.js';

const IDENTIFIER = /^[a-z_][a-z0-9_]{0,62}$/;

/** Schema names are spliced into SQL text, so only plain lower-case identifiers are allowed. */
export function quoteIdentifier(name: string, option: string): string {
  if (!IDENTIFIER.test(name)) {
    throw new NotificationsError(
      'INVALID_OPTION',
      `Option "${option}" must match ${IDENTIFIER} (lower-case letters, digits, underscores, at most 63 chars); got ${JSON.stringify(name)}`,
    );
  }
  if (name.startsWith('pg_')) {
    throw new NotificationsError('INVALID_OPTION', `Option "${option}" must not start with "pg_" (reserved by PostgreSQL); got ${JSON.stringify(name)}`);
  }
  return `"${name}"`;
}
