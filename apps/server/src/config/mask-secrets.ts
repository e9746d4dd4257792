import { createSecretMasker, type SecretMasker } from '@org/secret-masking';
import { isSecretKey, isUrlKey, minimumSecretLength, ruleKeyOf } from './safe-config-errors.js';

/** What a secret is shown as: the marker error messages use. */
export const mask = '[redacted]';

/**
 * `config print`'s masker: @org/secret-masking's one rule (the credentials and
 * query values of URLs, the path of webhook URLs, `user:password@` in any other
 * text), and, as a last guard, every form of `known` (the secrets found in the
 * file and the environment) cut out of any value or key. Built once per print:
 * a configuration with thousands of apps is guarded in time linear in its size.
 */
export function configMasker(known: Iterable<string> = []): SecretMasker {
  return createSecretMasker({ secrets: known, minLength: minimumSecretLength, marker: mask });
}

/**
 * Keys are judged by the rule the error messages find secrets with
 * (safe-config-errors.ts): values under secret-looking keys (`secret`,
 * `password`, `passphrase`, `token`, names ending in `key` but not `key`
 * itself, the app's public key) and every header value are replaced whole.
 */
const configKeys = { isSecretKey, isUrlKey, childKey: ruleKeyOf };

/** A copy of a configuration with every secret masked (see configMasker). */
export function maskConfig(masker: SecretMasker, value: unknown, key = ''): unknown {
  return masker.value(value, { ...configKeys, key });
}

/** A copy of a configuration with every secret masked, `known` cut out too. */
export function maskSecrets(value: unknown, known: Iterable<string> = [], key = ''): unknown {
  return maskConfig(configMasker(known), value, key);
}
