import { describe, expect, it } from 'vitest';
import { parseSendForm } from './send-form.js';

describe('parseSendForm', () => {
  it('trims fields and turns empty optional ones into null', () => {
    expect(parseSendForm({ title: '  Hello ', message: '', icon: 'check', action_url: '' })).toEqual({
      ok: true,
      content: { title: 'Hello', message: null, icon: 'check', action_url: null },
    });
    expect(parseSendForm({ title: 'x', action_url: 'https://example.test/a' })).toMatchObject({ ok: true, content: { action_url: 'https://example.test/a', icon: null } });
  });

  it.each([
    [{}, '"title" '],
    [{ title: '   ' }, '"title" is required'],
    [{ title: 'x'.repeat(201) }, '"title" must be at most 200 characters'],
    [{ title: 'x', icon: 'rocket' }, '"icon" '],
    [{ title: 'x', action_url: 'javascript:alert(1)' }, '"action_url" must be a path starting with / or an http(s) URL'],
    [{ title: 'x', action_url: '//evil.test' }, '"action_url" must be a path'],
  ])('refuses %o, naming the field', (input, message) => {
    const result = parseSendForm(input);
    expect(result.ok).toBe(false);
    expect(result.ok ? '' : result.error).toContain(message);
  });
});
