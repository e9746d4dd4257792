import { describe, expect, it } from 'vitest';
import { SecretMaskingError } from './errors.js';
import { createSecretMasker } from './secret-masker.js';
import type { SecretMaskerOptions } from './options.js';

function refusal(options: unknown): string {
  try {
    createSecretMasker(options as SecretMaskerOptions);
  } catch (error) {
    expect(error).toBeInstanceOf(SecretMaskingError);
    expect(error).toBeInstanceOf(TypeError);
    expect((error as SecretMaskingError).code).toBe('INVALID_MASKING_OPTIONS');
    return (error as Error).message;
  }
  throw new Error('expected a SecretMaskingError');
}

describe('options', () => {
  it('default to [redacted], 6 characters, the marked URL format, and no secrets', () => {
    const masker = createSecretMasker();
    expect([masker.marker, masker.valueMarker, masker.droppedMarker]).toEqual(['[redacted]', '[redacted]', '[redacted: contained a secret]']);
    expect(masker.url('https://u:p@h/x?a=1')).toBe('https://[redacted]:[redacted]@h/x?a=[redacted]');
    expect(createSecretMasker({ secrets: ['abcde'] }).echo('abcde')).toBe('[redacted: contained a secret]');
    expect(createSecretMasker({ secrets: ['abcdef'] }).echo('abcdef')).toBe('[redacted]');
  });

  it('are refused when built, naming the key, never quoting a value (it may be a misplaced secret)', () => {
    expect(refusal({ minLength: 0 })).toBe('@org/secret-masking: minLength must be an integer ≥ 1, got the number 0');
    expect(refusal({ minLength: 2.5 })).toMatch(/minLength must be/);
    expect(refusal({ marker: '' })).toBe('@org/secret-masking: marker must be a non-empty string, got a string of 0 characters');
    expect(refusal({ valueMarker: 7 })).toMatch(/^@org\/secret-masking: valueMarker must be a non-empty string, got the number 7$/);
    expect(refusal({ droppedMarker: null })).toMatch(/droppedMarker must be a non-empty string, got null/);
    expect(refusal({ urlFormat: 'fancy' })).toBe('@org/secret-masking: urlFormat must be one of marked, compact, bare, got a string of 5 characters');
    expect(refusal({ secrets: 'Zq7wK2pX9vSecret' })).toBe('@org/secret-masking: secrets must be an iterable of strings, got a string of 16 characters');
    expect(refusal({ secrets: ['ok', 42] })).toMatch(/secrets must be an iterable of strings, got the number 42/);
    expect(refusal({ identifiers: [null] })).toMatch(/identifiers must be an iterable of strings, got null/);
    expect(refusal({ rules: [null] })).toMatch(/rules must be an array of rule objects, got an array/);
    expect(refusal(null)).toMatch(/options must be an object, got null/);
  });

  it('take any iterable of secrets, once', () => {
    const masker = createSecretMasker({ secrets: new Set(['Zq7wK2pX9v']), identifiers: (function* () { yield 'robert-the-user'; })() });
    expect(masker.text('Zq7wK2pX9v robert-the-user')).toBe('[redacted] [redacted]');
  });
});
