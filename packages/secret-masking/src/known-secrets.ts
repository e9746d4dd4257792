import { isSecretHeader } from './key-rules.js';
import { splitUrl } from './url-parts.js';

/** What a configuration holds that a masker must know: secrets, and identifiers (masked, but no reason to drop a text). */
export interface KnownSecrets {
  secrets: string[];
  identifiers: string[];
}

/**
 * The credentials of a URL: its userinfo (`user:password`, read up to the last
 * `@`, as a password may hold `/ ? # @`), the password (also percent-decoded),
 * and every query value; the user name is an identifier. A userinfo without
 * `:` is a secret as a whole (a token given as the user name).
 */
export function urlCredentials(url: unknown): KnownSecrets {
  const found: KnownSecrets = { secrets: [], identifiers: [] };
  if (typeof url !== 'string') return found;
  const userinfo = /^(?:[a-z][a-z0-9+.-]*:\/\/)?(.*)@/is.exec(url)?.[1];
  if (userinfo) {
    const colon = userinfo.indexOf(':');
    if (colon < 0) found.secrets.push(userinfo);
    else {
      const password = userinfo.slice(colon + 1);
      found.secrets.push(userinfo, password);
      found.identifiers.push(userinfo.slice(0, colon));
    }
  }
  if (URL.canParse(url)) found.secrets.push(...new URL(url).searchParams.values());
  const parts = splitUrl(url);
  for (const item of parts && 'host' in parts ? (parts.query?.split('&') ?? []) : []) found.secrets.push(item.slice(item.indexOf('=') + 1));
  return withoutEmpty(found);
}

/**
 * The secrets request headers hold: the value of each header whose name says
 * it carries a credential, also without its scheme (`Bearer `, `Basic `, …),
 * and for Basic the decoded `user:password` and password (the user name is an
 * identifier).
 */
export function headerSecrets(headers: Readonly<Record<string, string>>, isSecret: (name: string) => boolean = isSecretHeader): KnownSecrets {
  const found: KnownSecrets = { secrets: [], identifiers: [] };
  for (const [name, value] of Object.entries(headers)) {
    if (!isSecret(name) || typeof value !== 'string') continue;
    const credentials = value.replace(/^\s*(?:Bearer|Basic|Token|Digest|Bot)\s+/i, '');
    found.secrets.push(value, credentials);
    if (/^\s*Basic\s/i.test(value)) {
      const pair = decodeBase64Text(credentials.trim());
      const colon = pair?.indexOf(':') ?? -1;
      if (pair !== undefined && colon >= 0) {
        found.secrets.push(pair, pair.slice(colon + 1));
        found.identifiers.push(pair.slice(0, colon));
      }
    }
  }
  return withoutEmpty(found);
}

function decodeBase64Text(text: string): string | undefined {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(Uint8Array.from(atob(text), (char) => char.charCodeAt(0)));
  } catch {
    return undefined; // not base64, or not UTF-8 text: the value itself is already a secret
  }
}

function withoutEmpty(found: KnownSecrets): KnownSecrets {
  return { secrets: [...new Set(found.secrets.filter(Boolean))], identifiers: [...new Set(found.identifiers.filter(Boolean))] };
}
