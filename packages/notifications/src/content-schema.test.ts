import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CONTENT_LIMITS, normalizeContent } from './content-schema.js';
import type { NormalizedContent } from './content-schema.js';
import { NotificationsError } from './errors.js';
import { isSafeUrl } from './contract.js';

/** The error normalizeContent raised, or a failure when it accepted the input. */
function refusal(input: unknown): NotificationsError {
  try {
    normalizeContent(input, 'Fallback');
  } catch (error) {
    return error as NotificationsError;
  }
  throw new Error(`accepted ${JSON.stringify(input)?.slice(0, 200)}`);
}

const expectRefused = (input: unknown, field: string): void => {
  const error = refusal(input);
  expect(error).toBeInstanceOf(NotificationsError);
  expect(error).toMatchObject({ code: 'INVALID_NOTIFICATION', message: expect.stringContaining(`at "${field}"`) });
};

const UNSAFE_URLS = [
  'javascript:alert(1)',
  'JaVaScRiPt:alert(1)',
  'data:text/html,<script>alert(1)</script>',
  'vbscript:msgbox(1)',
  ' /leading-space',
  '/trailing-space ',
  '\thttps://example.test/',
  'java\tscript:alert(1)',
  'java\nscript:alert(1)',
  'https://example.test/\0',
  '\u00a0https://example.test/',
];

describe('normalizeContent: URLs', () => {
  it.each(UNSAFE_URLS)('refuses %j as action_url and as an action url, naming the field', (url) => {
    expectRefused({ title: 't', action_url: url }, 'action_url');
    expectRefused({ title: 't', actions: [{ name: 'a', label: 'A', url }] }, 'actions.0.url');
    expectRefused({ title: 't', actions: [{ name: 'a', label: 'A', url: '/ok' }, { name: 'b', label: 'B', url }] }, 'actions.1.url');
  });

  it('keeps http(s) and relative URLs as given', () => {
    const c = normalizeContent({ title: 't', action_url: 'https://example.test/a?b#c', actions: [{ name: 'a', label: 'A', url: '/inbox/1' }] }, 'T');
    expect(c.action_url).toBe('https://example.test/a?b#c');
    expect(c.actions[0]?.url).toBe('/inbox/1');
  });
});

describe('normalizeContent: actions', () => {
  it('keeps color beside type, as given', () => {
    const actions = [{ name: 'a', label: 'A', color: 'danger' }, { name: 'b', label: 'B', type: 'info', color: 'success' }];
    expect(normalizeContent({ title: 't', actions }, 'T').actions).toEqual(actions);
    expectRefused({ title: 't', actions: [{ name: 'a', label: 'A', color: 'red' }] }, 'actions.0.color');
  });

  it.each(['check', 'fa fa-check', 'bi bi-trash3-fill', 'material_icons x', 'a'.repeat(255)])('accepts the icon %j (a built-in name or CSS classes)', (icon) => {
    expect(normalizeContent({ title: 't', actions: [{ name: 'a', label: 'A', icon }] }, 'T').actions[0]?.icon).toBe(icon);
  });

  it.each(['', ' fa', 'fa ', 'fa  fa-x', 'fa\tfa-x', 'fa"><script>', 'fa.fa-x', 'ｆａ', 'a'.repeat(256)])('refuses the icon %j, naming it', (icon) => {
    expectRefused({ title: 't', actions: [{ name: 'a', label: 'A', icon }] }, 'actions.0.icon');
  });

  it('refuses more than the action limit and action data that is not plain JSON', () => {
    expectRefused({ title: 't', actions: Array.from({ length: CONTENT_LIMITS.actions + 1 }, (_, i) => ({ name: `a${i}`, label: 'A' })) }, 'actions');
    expectRefused({ title: 't', actions: [{ name: 'a', label: 'A', data: { n: 1n } }] }, 'actions.0.data');
    expectRefused({ title: 't', actions: [{ name: 'a', label: 'A', data: { s: 'x'.repeat(CONTENT_LIMITS.dataBytes) } }] }, 'actions.0.data');
  });
});

describe('normalizeContent: hostile values', () => {
  it.each([
    ['title', { title: 'a\0b' }],
    ['title', { title: '\ud800' }],
    ['message', { title: 't', message: 'x\0' }],
    ['type', { title: 't', type: '\0' }],
    ['icon_class', { title: 't', icon_class: 'fa\0' }],
    ['actions.0.label', { title: 't', actions: [{ name: 'a', label: '\udfff' }] }],
    ['actions.0.event', { title: 't', actions: [{ name: 'a', label: 'A', event: 'e\0' }] }],
    ['data', { title: 't', data: { s: 'a\0' } }],
    ['data', { title: 't', data: { 'k\0': 1 } }],
    ['data', { title: 't', data: { deep: [{ s: '\ud800x' }] } }],
  ])('refuses NUL and unpaired surrogates in %s, naming it', (field, input) => {
    expectRefused(input, field);
  });

  it('keeps well-formed unicode, emoji and literal backslash sequences verbatim', () => {
    const title = 'Ünïcødé ☃ 👩‍👩‍👧 \\u0000 written out';
    const c = normalizeContent({ title, data: { s: '\\u0000', e: '😀' } }, 'T');
    expect(c.title).toBe(title);
    expect(c.data).toEqual({ s: '\\u0000', e: '😀' });
  });

  it('refuses data that is not plain JSON: cycles, BigInt, throwing or odd toJSON, arrays, oversize', () => {
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    expectRefused({ title: 't', data: cyclic }, 'data');
    expectRefused({ title: 't', data: { n: 10n } }, 'data');
    expectRefused({ title: 't', data: { toJSON: () => { throw new Error('boom'); } } }, 'data');
    expectRefused({ title: 't', data: { toJSON: () => 'a string' } }, 'data');
    expectRefused({ title: 't', data: { toJSON: () => undefined } }, 'data');
    expectRefused({ title: 't', data: [1, 2] }, 'data');
    expectRefused({ title: 't', data: 'text' }, 'data');
    expectRefused({ title: 't', data: { s: 'x'.repeat(CONTENT_LIMITS.dataBytes) } }, 'data');
  });

  it('refuses nesting too deep to serialise without overflowing, as INVALID_NOTIFICATION', () => {
    let deep: Record<string, unknown> = {};
    for (let i = 0; i < 200_000; i++) deep = { d: deep };
    expectRefused({ title: 't', data: deep }, 'data');
  });

  it('stores data as JSON: a "__proto__" key stays an own key, getters are read once, undefined is dropped', () => {
    const data = JSON.parse('{"__proto__":{"polluted":true},"a":1}') as Record<string, unknown>;
    let reads = 0;
    const c = normalizeContent({ title: 't', data: { ...data, get g() { reads += 1; return 2; }, u: undefined } }, 'T');
    expect(JSON.stringify(c.data)).toBe('{"__proto__":{"polluted":true},"a":1,"g":2}');
    expect(Object.hasOwn(c.data, '__proto__')).toBe(true);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(reads).toBe(1);
  });

  it('takes the last of duplicate JSON keys, as JSON.parse does', () => {
    const input = JSON.parse('{"title":"first","title":"second","action_url":"javascript:x","action_url":"/safe"}') as unknown;
    expect(normalizeContent(input, 'T')).toMatchObject({ title: 'second', action_url: '/safe' });
  });

  it('refuses huge strings by name, without echoing them', () => {
    const error = refusal({ title: 'x'.repeat(5_000_000) });
    expect(error.message).toContain('"title"');
    expect(error.message.length).toBeLessThan(300);
  });

  it('turns a throwing getter or proxy into INVALID_NOTIFICATION', () => {
    expectRefused({ get title(): string { throw new Error('boom'); } }, '(root)');
    expectRefused(new Proxy({}, { get: () => { throw new Error('trap'); }, ownKeys: () => { throw new Error('trap'); } }), '(root)');
  });

  it('never throws anything but INVALID_NOTIFICATION, and what it accepts is safe, storable and JSON-stable', () => {
    const nasty = fc.oneof(
      fc.anything({ maxDepth: 3, withBigInt: true, withNullPrototype: true, withObjectString: true, withSparseArray: true, withTypedArray: true, withDate: true, withMap: true, withSet: true }),
      fc.string({ unit: 'binary', maxLength: 30 }),
      fc.constantFrom('', '\0', '\ud800', 'javascript:alert(1)', ' /x', '/ok', 'https://ok.test', 'check', 'fa fa-x', 'success', 'x'.repeat(CONTENT_LIMITS.messageLength + 1)),
    );
    const action = fc.dictionary(fc.constantFrom('name', 'label', 'url', 'event', 'icon', 'type', 'color', 'openInNewTab', 'shouldClose', 'isDisabled', 'data', 'extra'), nasty, { maxKeys: 8 });
    const text = fc.string({ unit: 'grapheme', minLength: 1, maxLength: 20 });
    const url = fc.oneof(fc.webUrl(), fc.constantFrom('/inbox/1', '?q=1', '//cdn.test/x', 'javascript:alert(1)', 'JAVASCRIPT:x', ' /x', 'data:,x'), fc.string({ maxLength: 12 }));
    const jsonObject = fc.dictionary(fc.string({ unit: 'binary', maxLength: 6 }), fc.jsonValue({ maxDepth: 3 }), { maxKeys: 4 });
    // Mostly valid content, so acceptance is exercised too, with one field at a time made hostile.
    const plausible = fc.record(
      {
        type: text,
        title: text,
        message: fc.option(fc.string({ unit: 'binary', maxLength: 40 })),
        action_url: fc.option(url),
        icon: fc.option(fc.constantFrom('bell', 'check', 'nope')),
        icon_class: fc.option(text),
        actions: fc.array(fc.record({ name: text, label: text, url, icon: fc.constantFrom('check', 'fa fa-x', 'fa  x'), color: fc.constantFrom('info', 'danger'), data: jsonObject }, { requiredKeys: ['name', 'label'] }), { maxLength: 3 }),
        data: jsonObject,
      },
      { requiredKeys: ['title'] },
    );
    const oneHostile = fc.tuple(plausible, fc.constantFrom('type', 'title', 'message', 'action_url', 'icon', 'icon_class', 'actions', 'data', '__proto__', 'constructor'), fc.oneof(nasty, fc.array(action, { maxLength: 2 }))).map(
      ([c, key, value]) => Object.defineProperty({ ...c }, key, { value, enumerable: true, configurable: true, writable: true }),
    );
    let accepted = 0;
    fc.assert(
      fc.property(fc.oneof(plausible, oneHostile, nasty), (input) => {
        let out: NormalizedContent;
        try {
          out = normalizeContent(input, 'Fallback');
        } catch (error) {
          expect(error).toBeInstanceOf(NotificationsError);
          expect((error as NotificationsError).code).toBe('INVALID_NOTIFICATION');
          return;
        }
        accepted += 1;
        expect(JSON.parse(JSON.stringify(out))).toEqual(out);
        expect(JSON.stringify(out)).not.toMatch(/(?<!\\)(\\\\)*\\u(0000|d[89a-f])/i);
        for (const url of [out.action_url, ...out.actions.map((a) => a.url)]) if (typeof url === 'string') expect(isSafeUrl(url)).toBe(true);
      }),
      { numRuns: 300 },
    );
    // The property means little unless a fair share of inputs get through.
    expect(accepted).toBeGreaterThan(30);
  });
});
