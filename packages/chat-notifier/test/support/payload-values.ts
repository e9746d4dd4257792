import fc from 'fast-check';

/**
 * Values a caller may hand a payload field: well-formed and hostile ones for
 * every field kind (URLs, emoji, colours, timestamps, numbers, dates, empty
 * and blank text, wrong types), then anything at all.
 */
export const payloadValue = fc.oneof(
  fc.constantFrom(
    'https://example.com/a.png',
    'http://127.0.0.1:8080/x',
    'graph.png',
    '/relative',
    'javascript:alert(1)',
    'ftp://example.com/f',
    '',
    '   ',
    ':rocket:',
    'rocket',
    ':two words:',
    'good',
    'WARNING',
    'blue',
    '#36a64f',
    '#zzz',
    '2025-01-15T10:30:00Z',
    'not a date',
    0,
    1,
    -1,
    1_700_000_000,
    1_700_000_000_000,
    Number.NaN,
    Number.POSITIVE_INFINITY,
    true,
    false,
    null,
    undefined,
    new Date(0),
    new Date(Number.NaN),
    [],
    {},
  ),
  fc.date({ noInvalidDate: false }),
  fc.string(),
  fc.double(),
  fc.anything(),
);
