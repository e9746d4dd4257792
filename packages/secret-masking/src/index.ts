export { createSecretMasker, type SecretMasker, type UrlMaskOptions, type ValueMaskOptions } from './secret-masker.js';
export type { ValueKeyRules } from './mask-value.js';
export { cutSecrets } from './cut-secrets.js';
export type { CutSecretsOptions, SecretForms, SecretMaskerOptions, UrlFormat } from './options.js';
export type { MaskingRule } from './masking-rule.js';
export { isSecretHeader, isSecretKey, isUrlKey } from './key-rules.js';
export { headerSecrets, urlCredentials, type KnownSecrets } from './known-secrets.js';
export { safeString } from './mask-error.js';
export { SecretMaskingError, type SecretMaskingErrorCode } from './errors.js';
