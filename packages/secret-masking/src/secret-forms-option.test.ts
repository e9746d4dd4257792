import { describe, expect, it } from 'vitest';
import { SecretMaskingError } from './errors.js';
import { createSecretMasker } from './secret-masker.js';
import type { SecretMaskerOptions } from './options.js';

const secret = 'Zq9"w/K2pé';
const base64 = Buffer.from(secret).toString('base64');
const percent = encodeURIComponent(secret);
const json = JSON.stringify(secret).slice(1, -1);
const asciiJson = 'Zq9\\"w/K2p\\u00e9';

describe('the forms option', () => {
  it('defaults to every form: raw, JSON, percent-encoded, base64', () => {
    const masker = createSecretMasker({ secrets: [secret] });
    expect(masker.secrets(`a ${secret} b ${json} c ${percent} d ${base64} e`)).toBe('a [redacted] b [redacted] c [redacted] d [redacted] e');
  });

  it('plain cuts the secret as given and JSON-escaped (also ASCII and with \\/), ignoring case, and no other form', () => {
    const masker = createSecretMasker({ secrets: [secret], forms: 'plain' });
    const text = `a ${secret} b ${json} c ${asciiJson} d ${json.replace(/\//g, '\\/')} e ${secret.toUpperCase()} f`;
    expect(masker.secrets(text)).toBe('a [redacted] b [redacted] c [redacted] d [redacted] e [redacted] f');
    // Encoded forms are left: plain is for messages a program writes itself, which never encode a value.
    expect(masker.secrets(`${percent} ${base64}`)).toBe(`${percent} ${base64}`);
  });

  it('plain still drops an echo holding a secret too short to cut', () => {
    expect(createSecretMasker({ secrets: ['abc'], forms: 'plain' }).echo('x abc y')).toBe('[redacted: contained a secret]');
  });

  it('is refused when it names no form set, naming the key', () => {
    try {
      createSecretMasker({ forms: 'raw' } as unknown as SecretMaskerOptions);
      expect.unreachable('expected a SecretMaskingError');
    } catch (error) {
      expect(error).toBeInstanceOf(SecretMaskingError);
      expect((error as Error).message).toBe('@org/secret-masking: forms must be one of all, plain, got a string of 3 characters');
    }
  });
});
