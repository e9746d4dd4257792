/**
 * Names that say their value is a secret. Two lists, because config keys and
 * HTTP headers differ: a config's `key` is an app's public key (or a TLS key
 * file's path), while an HTTP header with `key` in its name carries one.
 */

/** Config keys whose values are secrets; `key` itself (a public app key, a file path) is not one, URLs are handled apart. */
const secretKey = /secret|password|passphrase|token|authori[sz]ation|credential|cookie|.key$|_key|key_/i;

export function isSecretKey(key: string): boolean {
  return secretKey.test(key);
}

/** Headers that carry credentials by name: `authorization`, `proxy-authenticate`, `cookie`, `set-cookie`, `x-api-key`, `x-auth-token`, session ids, … */
const secretHeader = /auth|token|secret|key|cookie|session|password|passphrase|credential/i;

export function isSecretHeader(name: string): boolean {
  return secretHeader.test(name);
}

/** Keys holding one URL each (`url`, `webhook_url`, `redirect_uri`, `webhook`): their credentials and query values are secrets. */
export function isUrlKey(key: string): boolean {
  return /(?:url|uri|webhook)$/i.test(key);
}

/** Keys whose URLs keep a credential in the path (Slack, Discord and Zapier webhooks). */
export function isWebhookKey(key: string): boolean {
  return /webhooks?$/i.test(key);
}
