import type { ComplexAttributeConverter } from 'lit';

/** For options that default to true: only `="false"` turns them off (a bare boolean attribute cannot). */
export const trueByDefault: ComplexAttributeConverter<boolean> = {
  fromAttribute: (value) => value === null || value.trim().toLowerCase() !== 'false',
  toAttribute: (value) => (value ? '' : 'false'),
};

/** `broadcasting` accepts JSON or "false"; unparsable JSON is passed through so validation names the problem. */
export const jsonOrFalse: ComplexAttributeConverter<unknown> = {
  fromAttribute(value) {
    if (value === null || value.trim() === '' || value.trim() === 'false') return false;
    try {
      return JSON.parse(value) as unknown;
    } catch {
      return value;
    }
  },
};

/** Numbers: an empty or absent attribute means "not set" rather than 0. */
export const optionalNumber: ComplexAttributeConverter<number | undefined> = {
  fromAttribute: (value) => (value === null || value.trim() === '' ? undefined : Number(value)),
};
