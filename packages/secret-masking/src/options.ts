import { SecretMaskingError } from './errors.js';
import type { MaskingRule } from './masking-rule.js';

/**
 * How a URL is written once its credentials are masked (`M` is the marker):
 *
 * - `marked`: every masked part keeps its place, so the URL's shape stays readable:
 *   `https://M:M@host/path?name=M&other=M#M`;
 * - `compact`: one marker per masked run: `https://M@host/path?M`;
 * - `bare`: the masked parts are left out: `https://host/path` (log fields).
 */
export type UrlFormat = 'marked' | 'compact' | 'bare';

/**
 * Which forms of each secret are cut:
 *
 * - `all`: every form a text may echo it in (raw, percent-, JSON-, HTML-escaped, base64, …);
 * - `plain`: as given and JSON-escaped (also with `\/`), for messages this program writes
 *   itself, which quote a value at most with `JSON.stringify`. About a tenth of the
 *   forms to build, for many long candidates taken from hostile text.
 *
 * Both match ignoring case.
 */
export type SecretForms = 'all' | 'plain';

export interface SecretMaskerOptions {
  /** Values cut out wherever they occur, in every form a text may echo them in. Default: none. */
  readonly secrets?: Iterable<string> | undefined;
  /** Values that identify rather than grant access (a user name): cut when at least `minLength` long, never a reason to drop a text. Default: none. */
  readonly identifiers?: Iterable<string> | undefined;
  /** Forms of a secret shorter than this are not cut inside text (they would cut ordinary words); `echo()` drops a text holding one instead. Default 6. */
  readonly minLength?: number | undefined;
  /** What a masked part of a text or URL is shown as. Default `[redacted]`. */
  readonly marker?: string | undefined;
  /** What a value that is a secret as a whole (under a secret key, a credential header) is shown as. Default: `marker`. */
  readonly valueMarker?: string | undefined;
  /** What `echo()` answers for a text it drops whole. Default `[redacted: contained a secret]`. */
  readonly droppedMarker?: string | undefined;
  /** How masked URLs are written. Default `marked`. */
  readonly urlFormat?: UrlFormat | undefined;
  /** Extra rules for credential shapes of one service (a webhook path, a header name). Default: none. */
  readonly rules?: readonly MaskingRule[] | undefined;
  /** Which forms of each secret and identifier are cut. Default `all`. */
  readonly forms?: SecretForms | undefined;
}

export interface ResolvedMaskerOptions {
  readonly secrets: readonly string[];
  readonly identifiers: readonly string[];
  readonly minLength: number;
  readonly marker: string;
  readonly valueMarker: string;
  readonly droppedMarker: string;
  readonly urlFormat: UrlFormat;
  readonly rules: readonly MaskingRule[];
  readonly forms: SecretForms;
}

const urlFormats: readonly UrlFormat[] = ['marked', 'compact', 'bare'];
const formSets: readonly SecretForms[] = ['all', 'plain'];

/** Checked once, when the masker is built: a bad option fails there, naming the key, not at the first text. */
export function resolveMaskerOptions(options: SecretMaskerOptions = {}): ResolvedMaskerOptions {
  if (typeof options !== 'object' || options === null) fail('options', 'an object', options);
  const minLength = options.minLength ?? 6;
  if (!Number.isInteger(minLength) || minLength < 1) fail('minLength', 'an integer ≥ 1', minLength);
  const marker = markerOption('marker', options.marker, '[redacted]');
  const urlFormat = options.urlFormat ?? 'marked';
  if (!urlFormats.includes(urlFormat)) fail('urlFormat', `one of ${urlFormats.join(', ')}`, urlFormat);
  const forms = options.forms ?? 'all';
  if (!formSets.includes(forms)) fail('forms', `one of ${formSets.join(', ')}`, forms);
  const rules = options.rules ?? [];
  if (!Array.isArray(rules) || rules.some((rule) => typeof rule !== 'object' || rule === null)) fail('rules', 'an array of rule objects', rules);
  return {
    secrets: stringList('secrets', options.secrets),
    identifiers: stringList('identifiers', options.identifiers),
    minLength,
    marker,
    valueMarker: markerOption('valueMarker', options.valueMarker, marker),
    droppedMarker: markerOption('droppedMarker', options.droppedMarker, '[redacted: contained a secret]'),
    urlFormat,
    rules,
    forms,
  };
}

/** cutSecrets' options: the masker's that apply to cutting one text, and how much one automaton holds. */
export interface CutSecretsOptions {
  /** Forms shorter than this are not cut (they would cut ordinary words). Default 6. */
  readonly minLength?: number | undefined;
  /** What a cut part is shown as. Default `[redacted]`. */
  readonly marker?: string | undefined;
  /** Which forms of each secret are cut. Default `all`. */
  readonly forms?: SecretForms | undefined;
  /** Characters of forms one automaton is built from, used on the text and dropped, before the next (never fewer than the text's length). Default 1,048,576. */
  readonly batchChars?: number | undefined;
}

export interface ResolvedCutOptions {
  readonly secrets: readonly string[];
  readonly minLength: number;
  readonly marker: string;
  readonly forms: SecretForms;
  readonly batchChars: number;
}

/** Checked before any form is built, as the masker's options are. */
export function resolveCutOptions(secrets: Iterable<string>, options: CutSecretsOptions = {}): ResolvedCutOptions {
  if (typeof options !== 'object' || options === null) fail('options', 'an object', options);
  const { minLength, marker, forms } = resolveMaskerOptions({ minLength: options.minLength, marker: options.marker, forms: options.forms });
  const batchChars = options.batchChars ?? 1 << 20;
  if (!Number.isInteger(batchChars) || batchChars < 1) fail('batchChars', 'an integer ≥ 1', batchChars);
  return { secrets: stringList('secrets', secrets), minLength, marker, forms, batchChars };
}

function stringList(key: string, values: Iterable<string> | undefined): string[] {
  if (values === undefined) return [];
  if (typeof values !== 'object' || values === null || typeof (values as Iterable<string>)[Symbol.iterator] !== 'function') fail(key, 'an iterable of strings', values);
  const list = [...values];
  const bad = list.find((value) => typeof value !== 'string');
  if (bad !== undefined) fail(key, 'an iterable of strings', bad);
  return list;
}

function markerOption(key: string, value: string | undefined, fallback: string): string {
  if (value === undefined) return fallback;
  if (typeof value !== 'string' || value === '') fail(key, 'a non-empty string', value);
  return value;
}

function fail(key: string, expected: string, got: unknown): never {
  // Only the type of a bad value is named: a misplaced secret must not end up in the message.
  throw new SecretMaskingError('INVALID_MASKING_OPTIONS', `${key} must be ${expected}, got ${describeType(got)}`);
}

function describeType(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'number') return Number.isNaN(value) ? 'NaN' : `the number ${value}`;
  return typeof value === 'string' ? `a string of ${value.length} characters` : `a value of type ${typeof value}`;
}
