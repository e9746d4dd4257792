import { createSecretMasker, headerSecrets as credentialHeaderSecrets, isSecretHeader, urlCredentials, type MaskingRule, type SecretMasker } from '@org/secret-masking';

/*
 * Everything this package prints, throws or returns is masked by
 * @org/secret-masking's one rule, with Rocket.Chat's shapes plugged in:
 *
 * - a URL keeps its scheme, host and port; its userinfo becomes `***@`, the
 *   path after `/hooks/` (the integration id and token) becomes `***`, and a
 *   query or fragment becomes `?***`;
 * - text that may echo a secret (server bodies, headers, error messages of
 *   the network stack) has its URLs masked, and every form of the webhook's
 *   secret path (raw, URL-decoded, percent-encoded, JSON-escaped, HTML-escaped,
 *   base64) replaced with `***`, or is dropped whole;
 * - headers that carry credentials (`authorization`, `cookie`, `x-user-id`, …)
 *   are replaced, and those that carry URLs (`location`, …) URL-masked.
 */

export const REDACTED = '[redacted]';
/** Replaces a whole echoed text that holds a secret too short to be masked inside it. */
export const SECRET_DROPPED = '[redacted: contained a secret]';

const HOOKS = /\/hooks\//i;
/** A webhook path without a scheme (`chat.example.com/hooks/<id>/<token>`, an echoed request line): two segments, as a webhook has. */
const HOOKS_PATH_IN_TEXT = /\/hooks\/[^\s"<>`/]+\/[^\s"<>`]+/gi;

/** Rocket.Chat's credential shapes: the `/hooks/<id>/<token>` webhook path, and the REST API's user id header. */
const rocketChat: MaskingRule = {
  secretPathStart(path) {
    const hooks = HOOKS.exec(path);
    return hooks ? hooks.index + '/hooks/'.length : -1;
  },
  maskText: (text, marker) => text.replace(HOOKS_PATH_IN_TEXT, `/hooks/${marker}`),
  isSecretHeader: (name) => name.toLowerCase() === 'x-user-id',
};

const masking = { marker: '***', valueMarker: REDACTED, droppedMarker: SECRET_DROPPED, urlFormat: 'compact', minLength: 6, rules: [rocketChat] } as const;
const urlsOnly = createSecretMasker(masking);

/** `https://user:pw@chat.example.com/hooks/id/token?x=1` → `https://***@chat.example.com/hooks/***`, malformed URLs too (a password holding `/ ? # @`). */
export function maskUrl(url: string): string {
  return urlsOnly.url(url);
}

/** Masks every URL found in free text, every `user:password@host` and every `/hooks/` path. */
export function maskUrlsIn(text: string): string {
  return urlsOnly.text(text);
}

/** Scrubs text of one webhook's secrets. Built once per instance: the forms of all secrets are compiled here, not per message. */
export class Redactor {
  readonly #masker: SecretMasker;

  /**
   * `secrets` are masked wherever they occur, and a text holding one too short
   * to mask is dropped. `maskOnly` values (a proxy's user name) are masked when
   * long enough and otherwise left alone: they identify, they do not grant access.
   */
  constructor(secrets: readonly string[], maskOnly: readonly string[] = []) {
    this.#masker = createSecretMasker({ ...masking, secrets, identifiers: maskOnly });
  }

  /**
   * For a webhook URL: every path segment after `/hooks/` (the integration id
   * and each part of the token), the whole path after `/hooks/`, and the request
   * path itself (a server may echo it base64-encoded).
   */
  static forWebhook(webhook: string | undefined, extra: readonly string[] = [], maskOnly: readonly string[] = []): Redactor {
    return new Redactor([...webhookSecrets(webhook), ...extra], maskOnly);
  }

  /** Foreign text (a server's body or header, a network error): masked as an echo, or SECRET_DROPPED. */
  text(text: string): string {
    return this.#masker.echo(text);
  }

  /** Only the (long) secret forms replaced: for the package's own text, which echoes nothing. */
  secrets(text: string): string {
    return this.#masker.secrets(text);
  }

  /** Header values made safe to keep on errors and results. */
  headers(headers: Readonly<Record<string, string>>): Record<string, string> {
    return this.#masker.headers(headers);
  }

  /** A scrubbed copy of an error and its cause chain (see sanitizeError). */
  error(error: unknown): unknown {
    return this.#masker.error(error);
  }
}

/** The secret parts of a webhook URL (see Redactor.forWebhook). */
function webhookSecrets(webhook: string | undefined): string[] {
  if (!webhook) return [];
  const path = /^[a-z][a-z0-9+.-]*:\/\/[^/?#]*(\/[^?#]*)?/i.exec(webhook)?.[1] ?? '';
  const hooks = HOOKS.exec(path);
  if (!hooks) return [];
  // A router may echo the token without the trailing slash the webhook has.
  const tail = path.slice(hooks.index + '/hooks/'.length).replace(/\/+$/, '');
  const segments = tail.split('/').filter((s) => s.length > 0);
  const token = segments.slice(1).join('/');
  return [...new Set([path, path.replace(/\/+$/, ''), `/hooks/${tail}`, tail, token, ...segments].filter((s) => s.length > 0))];
}

/**
 * The user name (an identifier, masked when long enough) and the secrets
 * (the whole `user:password`, the password, any query value) of a URL's userinfo.
 */
export function userinfoSecrets(url: unknown): { secrets: string[]; maskOnly: string[] } {
  const { secrets, identifiers } = urlCredentials(url);
  return { secrets, maskOnly: identifiers };
}

/** The secrets of configured request headers: credential headers' values, also without `Bearer `/`Basic `, and a Basic credential's parts. */
export function headerSecrets(headers: Readonly<Record<string, string>>): { secrets: string[]; maskOnly: string[] } {
  const { secrets, identifiers } = credentialHeaderSecrets(headers, (name) => isSecretHeader(name) || rocketChat.isSecretHeader!(name));
  return { secrets, maskOnly: identifiers };
}

/**
 * A copy of an error (and its cause / AggregateError chain) whose message,
 * stack and string properties are scrubbed. The network stack's own errors
 * may hold sockets, request options or URLs; none of that is kept.
 */
export function sanitizeError(error: unknown, redactor: Redactor): unknown {
  return redactor.error(error);
}

export { safeString } from '@org/secret-masking';
