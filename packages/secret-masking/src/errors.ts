/** Stable machine-readable codes; match on these, never on messages. */
export type SecretMaskingErrorCode = 'INVALID_MASKING_OPTIONS';

/** Options that cannot build a masker; the message names the key. Thrown once, when the masker is built. */
export class SecretMaskingError extends TypeError {
  readonly code: SecretMaskingErrorCode;

  constructor(code: SecretMaskingErrorCode, message: string) {
    super(`@org/secret-masking: ${message}`);
    this.name = 'SecretMaskingError';
    this.code = code;
  }
}
