/**
 * An extra rule for the credential shapes of one service, plugged into a
 * masker beside the generic rule (which it can only add to, never relax).
 * Each hook must run in time linear in its input: the masker promises that
 * for hostile text.
 */
export interface MaskingRule {
  /**
   * Where the secret part of a URL's path begins (an index into `path`, which
   * starts with `/`), or -1 when this rule sees none. Everything from there on
   * is masked, e.g. Rocket.Chat's `/hooks/<id>/<token>`: the index after `/hooks/`.
   */
  secretPathStart?(path: string): number;
  /**
   * Masks, in free text, shapes the URL scan cannot find (a webhook path
   * echoed without its scheme). Runs after the URLs of the text are masked.
   */
  maskText?(text: string, marker: string): string;
  /** Header names this service uses for credentials beyond the generic ones (`isSecretHeader`). */
  isSecretHeader?(name: string): boolean;
}
