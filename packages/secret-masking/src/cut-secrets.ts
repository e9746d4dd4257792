import { resolveCutOptions, type CutSecretsOptions } from './options.js';
import { cutLongest, PatternSet } from './pattern-set.js';
import { embeddedBase64Forms, plainSecretForms, secretForms } from './secret-forms.js';

/**
 * Cuts every form of `secrets` out of one text: exactly what
 * `createSecretMasker({ secrets, minLength, marker, forms }).secrets(text)`
 * answers, for secrets that are many and used once (candidates a program
 * took from hostile text, tens of times that text's size).
 *
 * A masker keeps one automaton of every form, tens of bytes a character, to
 * use on many texts. Here forms longer than the text are skipped (none fits
 * in it), and automata of at most `batchChars` characters of forms (never
 * fewer than the text's length, so each scan of the text is paid for by as
 * many characters of forms) are built, used and dropped one at a time; the
 * longest form starting at each place is merged over them all, then cut
 * leftmost-longest once. Time stays linear in the text and the secrets,
 * memory bounded by `batchChars` and the text.
 */
export function cutSecrets(text: string, secrets: Iterable<string>, options?: CutSecretsOptions): string {
  const resolved = resolveCutOptions(secrets, options);
  const { minLength, marker, forms, batchChars } = resolved;
  const formsOf = forms === 'plain' ? plainSecretForms : (secret: string) => [...secretForms(secret), ...embeddedBase64Forms(secret)];
  const budget = Math.max(batchChars, text.length);
  const longest = new Int32Array(text.length);
  let batch: string[] = [];
  let chars = 0;
  const useBatch = () => {
    PatternSet.of(batch)?.mergeLongest(text, longest);
    batch = [];
    chars = 0;
  };
  for (const secret of resolved.secrets) {
    // No plain form is shorter than its secret: a longer one is skipped before its forms are built.
    if (forms === 'plain' && secret.length > text.length) continue;
    for (const form of formsOf(secret)) {
      if (form.length < minLength || form.length > text.length) continue;
      batch.push(form);
      chars += form.length;
      if (chars >= budget) useBatch();
    }
  }
  useBatch();
  return cutLongest(text, longest, marker);
}
