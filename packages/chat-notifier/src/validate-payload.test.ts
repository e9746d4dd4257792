import { describe, expect, it } from 'vitest';
import { InvalidChatPayload } from './errors.js';
import { validateChatPayload } from './validate-payload.js';

function errorOf(payload: unknown): InvalidChatPayload {
  try {
    validateChatPayload(payload);
  } catch (error) {
    if (error instanceof InvalidChatPayload) return error;
    throw error;
  }
  throw new Error('expected validation to fail');
}

describe('validateChatPayload', () => {
  it('accepts a text-only message and an attachment-only message', () => {
    expect(validateChatPayload({ text: 'hi' })).toEqual({ text: 'hi' });
    expect(validateChatPayload({ attachments: [{ title: 'only' }] })).toEqual({ attachments: [{ title: 'only' }] });
  });

  it('refuses an empty message, which Rocket.Chat would accept and silently drop', () => {
    expect(errorOf({ text: '  ' }).field).toBe('text');
    expect(errorOf({}).message).toMatch(/the message is empty/);
  });

  it('names the exact field of a relative or non-http URL', () => {
    const relative = errorOf({ text: 'x', attachments: [{}, { image_url: '/graph.png' }] });
    expect(relative.code).toBe('CHAT_INVALID_PAYLOAD');
    expect(relative.field).toBe('attachments[1].image_url');
    expect(relative.message).toBe('Invalid chat payload: attachments[1].image_url: expected an absolute http(s) URL, got "/graph.png"');
    expect(errorOf({ text: 'x', attachments: [{ title_link: 'javascript:alert(1)' }] }).field).toBe('attachments[0].title_link');
    expect(errorOf({ text: 'x', avatar: 'ftp://example.com/a.png' }).field).toBe('avatar');
    expect(errorOf({ text: 'x', attachments: [{ author_icon: 'example.com/a.png' }] }).field).toBe('attachments[0].author_icon');
  });

  it('requires field titles and values to be non-empty, as Rocket.Chat does', () => {
    expect(errorOf({ attachments: [{ fields: [{ title: '', value: 'v' }] }] }).field).toBe('attachments[0].fields[0].title');
    expect(errorOf({ attachments: [{ fields: [{ title: 't', value: 'ok' }, { title: 't', value: '' }] }] }).field).toBe(
      'attachments[0].fields[1].value',
    );
    // 0 and false are posted as strings (Rocket.Chat rejects falsy values), exactly as the builders do.
    expect(validateChatPayload({ attachments: [{ fields: [{ title: 't', value: 0 }, { title: 'f', value: false }] }] }).attachments?.[0]?.fields).toEqual([
      { short: false, title: 't', value: '0' },
      { short: false, title: 'f', value: 'false' },
    ]);
    expect(errorOf({ attachments: [{ fields: [{ title: 't', value: 'v', short: 'yes' }] }] }).field).toBe(
      'attachments[0].fields[0].short',
    );
  });

  it('checks types of the top-level fields', () => {
    expect(errorOf({ text: 42 }).field).toBe('text');
    expect(errorOf({ text: 'x', channel: [] }).field).toBe('channel');
    expect(errorOf({ text: 'x', emoji: 'rocket' }).message).toMatch(/emoji: expected an emoji shortcode like ":rocket:"/);
    expect(errorOf({ text: 'x', attachments: {} }).field).toBe('attachments');
    expect(errorOf({ text: 'x', attachments: ['nope'] }).field).toBe('attachments[0]');
    expect(errorOf('text').message).toMatch(/expected an object/);
  });
});
