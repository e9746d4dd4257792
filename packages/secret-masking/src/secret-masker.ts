import { maskCredentialsIn } from './free-text.js';
import { isSecretHeader } from './key-rules.js';
import { maskError } from './mask-error.js';
import { maskValue, type ValueKeyRules } from './mask-value.js';
import { resolveMaskerOptions, type SecretMaskerOptions } from './options.js';
import { PatternSet } from './pattern-set.js';
import { embeddedBase64Forms, plainSecretForms, secretForms } from './secret-forms.js';
import { unescapeEchoes } from './unescape.js';
import { formatMaskedUrl } from './url-format.js';
import { schemePrefix, splitUrl } from './url-parts.js';

export interface UrlMaskOptions {
  /** The URL keeps a credential in its path (a Slack, Discord or Zapier webhook): the whole path is masked. Default false. */
  readonly secretPath?: boolean | undefined;
}

export interface ValueMaskOptions extends ValueKeyRules {
  /** The key the tree sits under. Default `''`. */
  readonly key?: string | undefined;
}

/** Masks one set of known secrets, and credentials of every kind, by one rule. Build once, use for many texts. */
export interface SecretMasker {
  readonly marker: string;
  readonly valueMarker: string;
  readonly droppedMarker: string;
  /**
   * One URL: scheme, host, port and path stay, as written; the userinfo, every
   * query value and the fragment are masked, and so is the path from where a
   * rule (or `secretPath`) says the secret begins. A text that does not start
   * with `scheme://` is masked whole (where its credentials are cannot be known).
   */
  url(url: string, options?: UrlMaskOptions): string;
  /**
   * Free text: its URLs masked as `url()` does, `user:password@host` masked,
   * the rules' shapes masked, then every form of the known secrets cut out.
   * For text this program writes (messages, configuration values).
   */
  text(text: string): string;
  /**
   * Text from elsewhere that may echo a secret (a server's body or header, a
   * network error): as `text()`, but dropped whole (answered with
   * `droppedMarker`) when it holds a form of a secret too short to cut, or
   * shows a secret once its JSON, HTML or percent escapes are undone.
   */
  echo(text: string): string;
  /** Only the forms of the known secrets cut out (no URL or userinfo rule): for text that is known to hold no credential of its own. */
  secrets(text: string): string;
  /** A response or request header made safe to keep: credential headers replaced whole, URL headers masked as URLs, others as echoes. */
  header(name: string, value: string): string;
  headers(headers: Readonly<Record<string, string>>): Record<string, string>;
  /**
   * A copy of a value tree (a configuration) with its secrets masked, judged by
   * key (see the README). `key`: the key the tree sits under; the key rules
   * default to the package's.
   */
  value(value: unknown, options?: ValueMaskOptions): unknown;
  /** A copy of an error and its cause chain with message, stack and string fields masked as echoes; no other field is kept. */
  error(error: unknown): unknown;
}

/** Response headers that hold URLs by nature. */
const urlHeaders = new Set(['location', 'content-location', 'refresh', 'link', 'referer']);

export function createSecretMasker(options?: SecretMaskerOptions): SecretMasker {
  const resolved = resolveMaskerOptions(options);
  const { marker, valueMarker, droppedMarker, urlFormat, rules, minLength } = resolved;
  const cut = new Set<string>();
  const tooShort = new Set<string>();
  const formsOf = resolved.forms === 'plain' ? plainSecretForms : secretForms;
  const embeddedFormsOf = resolved.forms === 'plain' ? () => [] : embeddedBase64Forms;
  for (const secret of resolved.secrets) {
    for (const form of formsOf(secret)) (form.length >= minLength ? cut : tooShort).add(form);
    for (const core of embeddedFormsOf(secret)) if (core.length >= minLength) cut.add(core);
  }
  for (const identifier of resolved.identifiers) {
    for (const form of [...formsOf(identifier), ...embeddedFormsOf(identifier)]) if (form.length >= minLength) cut.add(form);
  }
  const cutForms = PatternSet.of(cut);
  const shortForms = PatternSet.of(tooShort);

  const secretPathStart = (path: string, secretPath: boolean): number => {
    let start = secretPath && path.length > 1 ? 1 : -1;
    for (const rule of rules) {
      const found = rule.secretPathStart?.(path) ?? -1;
      if (found >= 0 && (start < 0 || found < start)) start = Math.min(found, path.length);
    }
    return start;
  };
  const maskUrl = (url: string, secretPath: boolean, inText: boolean): string => {
    const parts = splitUrl(url);
    if (parts === undefined) return url === '' ? url : marker;
    if ('opaque' in parts) return `${parts.scheme}${marker}`;
    return formatMaskedUrl(parts, secretPathStart(parts.path, secretPath), { format: urlFormat, marker, inText });
  };
  const secrets = (text: string): string => (cutForms ? cutForms.replaceIn(text, marker) : text);
  const text = (input: string): string => {
    let masked = maskCredentialsIn(input, (url) => maskUrl(url, false, true), marker);
    for (const rule of rules) if (rule.maskText) masked = rule.maskText(masked, marker);
    return secrets(masked);
  };
  const echo = (input: string): string => {
    const masked = text(input);
    if (shortForms?.occursIn(masked)) return droppedMarker;
    const unescaped = unescapeEchoes(masked);
    if (unescaped !== masked && (cutForms?.occursIn(unescaped) || shortForms?.occursIn(unescaped))) return droppedMarker;
    return masked;
  };
  const url = (input: string, urlOptions: UrlMaskOptions = {}): string => maskUrl(input, urlOptions.secretPath === true, false);
  const header = (name: string, value: string): string => {
    if (isSecretHeader(name) || rules.some((rule) => rule.isSecretHeader?.(name) === true)) return valueMarker;
    if (urlHeaders.has(name.toLowerCase())) return echo(schemePrefix.test(value.trim()) ? url(value.trim()) : value);
    return echo(value);
  };
  return {
    marker,
    valueMarker,
    droppedMarker,
    url,
    text,
    echo,
    secrets,
    header,
    headers: (headers) => Object.fromEntries(Object.entries(headers).map(([name, value]) => [name, header(name, value)])),
    value: (value, valueOptions = {}) =>
      maskValue(value, { valueMarker, url: (input, secretPath) => secrets(maskUrl(input, secretPath, false)), text, key: secrets }, valueOptions.key ?? '', valueOptions),
    error: (error) => maskError(error, echo),
  };
}
