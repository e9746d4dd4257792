import { createSecretMasker, type SecretMasker } from '@org/secret-masking';
import { minimumSecretLength } from './safe-config-errors.js';

/** What a secret is shown as: the marker error messages use. */
export const mask = '[redacted]';

/**
 * `config print`'s masker: @org/secret-masking's one rule (values under
 * secret-looking keys, every webhook header value, the credentials and query
 * values of URLs, the path of webhook URLs, `user:password@` in any other
 * text), and, as a last guard, every form of `known` (the secrets found in the
 * file and the environment) cut out of any value or key. Built once per print:
 * a configuration with thousands of apps is guarded in time linear in its size.
 */
export function configMasker(known: Iterable<string> = []): SecretMasker {
  return createSecretMasker({ secrets: known, minLength: minimumSecretLength, marker: mask });
}

/** A copy of a configuration with every secret masked (see configMasker). */
export function maskSecrets(value: unknown, known: Iterable<string> = [], key = ''): unknown {
  return configMasker(known).value(value, { key });
}
