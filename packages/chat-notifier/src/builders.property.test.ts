import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ChatAttachment } from './chat-attachment.js';
import { ChatMessage } from './chat-message.js';
import { InvalidChatPayload } from './errors.js';
import { payloadValue } from '../test/support/payload-values.js';
import { preparePayload } from './prepare-payload.js';

/*
 * The chosen moment for payload problems is the setter call. For arbitrary
 * builder call sequences (hostile values included): a call either succeeds or
 * throws InvalidChatPayload at once, naming one of the fields that call sets,
 * and leaves the builder unchanged; whatever the builders accepted is never
 * refused later, at send, except for what only the whole message can tell (an
 * empty message).
 */

const value = payloadValue;

const ATTACHMENT_FIELDS: Record<string, RegExp> = {
  title: /^(title|title_link)$/,
  text: /^text$/,
  pretext: /^pretext$/,
  color: /^color$/,
  field: /^fields\[\d+\]\.(title|value|short)$/,
  fields: /^fields(\[\d+\](\..+)?)?$/s, // an unknown key in an entry is named: fields[0].shrot
  thumb: /^thumb_url$/,
  image: /^image_url$/,
  audio: /^audio_url$/,
  video: /^video_url$/,
  author: /^author_(name|link|icon)$/,
  timestamp: /^ts$/,
  link: /^message_link$/,
  collapsed: /^collapsed$/,
  merge: /^.+$/s, // the offending key, whatever it is (`attachment` for a non-object or an empty key)
};
const MESSAGE_FIELDS: Record<string, RegExp> = {
  text: /^text$/,
  username: /^alias$/,
  avatar: /^avatar$/,
  emoji: /^emoji$/,
  thread: /^tmid$/,
};

type Call = { method: string; args: unknown[] };

const attachmentCall: fc.Arbitrary<Call> = fc.oneof(
  fc.record({ method: fc.constantFrom('text', 'pretext', 'color', 'thumb', 'image', 'audio', 'video', 'timestamp', 'link', 'collapsed'), args: fc.tuple(value) }),
  fc.record({ method: fc.constant('title'), args: fc.tuple(value, fc.option(value, { nil: undefined })) }),
  fc.record({ method: fc.constant('author'), args: fc.tuple(value, fc.option(value, { nil: undefined }), fc.option(value, { nil: undefined })) }),
  fc.record({ method: fc.constant('field'), args: fc.tuple(value, value, fc.option(value, { nil: undefined })) }),
  fc.record({
    method: fc.constant('fields'),
    args: fc.tuple(fc.oneof(fc.array(fc.record({ title: value, value, short: fc.option(fc.boolean(), { nil: undefined }) }), { maxLength: 3 }), value)),
  }),
  fc.record({
    method: fc.constant('merge'),
    args: fc.tuple(
      fc.oneof(
        fc.dictionary(fc.constantFrom('title', 'title_link', 'image_url', 'color', 'ts', 'collapsed', 'fields', 'footer', 'image', 'imageurl', '__proto__', 'text'), value, { maxKeys: 4 }),
        value,
      ),
    ),
  }),
);

const messageCall: fc.Arbitrary<Call | { method: 'attachment'; calls: Call[] }> = fc.oneof(
  fc.record({ method: fc.constantFrom('text', 'username', 'avatar', 'emoji', 'thread'), args: fc.tuple(value) }),
  fc.record({ method: fc.constant('attachment' as const), calls: fc.array(attachmentCall, { maxLength: 5 }) }),
);

function snapshot(builder: { toArray(): unknown }): string {
  return JSON.stringify(builder.toArray());
}

/** Runs one call; asserts the moment, the error type, the field and the unchanged state. */
function apply(builder: Record<string, (...args: unknown[]) => unknown> & { toArray(): unknown }, call: Call, fields: Record<string, RegExp>): void {
  const before = snapshot(builder);
  try {
    builder[call.method]!(...call.args);
  } catch (error) {
    expect(error, `${call.method}(${fc.stringify(call.args)})`).toBeInstanceOf(InvalidChatPayload);
    const field = (error as InvalidChatPayload).field;
    expect(field, `${call.method} reported ${field}`).toMatch(fields[call.method]!);
    expect((error as InvalidChatPayload).code).toBe('CHAT_INVALID_PAYLOAD');
    expect(snapshot(builder), `${call.method} changed the builder although it threw`).toBe(before);
  }
}

describe('builders report every payload problem when the value is set', () => {
  it('for arbitrary call sequences: at the call, naming the field, state unchanged; never later at send', () => {
    fc.assert(
      fc.property(fc.option(value, { nil: undefined }), fc.array(messageCall, { maxLength: 8 }), (initial, calls) => {
        let message: ChatMessage;
        try {
          message = new ChatMessage(initial as string | undefined);
        } catch (error) {
          expect(error).toBeInstanceOf(InvalidChatPayload);
          expect((error as InvalidChatPayload).field).toBe('text');
          return;
        }
        const m = message as unknown as Record<string, (...args: unknown[]) => unknown> & { toArray(): unknown };
        for (const call of calls) {
          if (call.method === 'attachment') {
            // Each inner call is checked where it happens (apply catches what it throws).
            message.attachment((a) => {
              for (const inner of (call as { calls: Call[] }).calls) {
                apply(a as unknown as Record<string, (...args: unknown[]) => unknown> & { toArray(): unknown }, inner, ATTACHMENT_FIELDS);
              }
            });
          } else {
            apply(m, call as Call, MESSAGE_FIELDS);
          }
        }
        // Send time: only the whole-message rule (empty message) may fail.
        try {
          preparePayload(null, message, { override_channel: true, max_payload_bytes: 64 * 1024 * 1024, instance: 'chat' });
        } catch (error) {
          expect(error).toBeInstanceOf(InvalidChatPayload);
          expect((error as InvalidChatPayload).field).toBe('text');
          const payload = message.toArray();
          expect(payload.text === undefined || payload.text.trim() === '').toBe(true);
          expect(payload.attachments ?? []).toHaveLength(0);
        }
      }),
      { numRuns: 500 },
    );
  });

  it('each field, one by one: a bad value throws at the setter with the field named', () => {
    const a = () => ChatAttachment.create();
    const cases: Array<[() => unknown, string]> = [
      [() => ChatMessage.create(42 as never), 'text'],
      [() => ChatMessage.create('x').username(null as never), 'alias'],
      [() => ChatMessage.create('x').avatar('/me.png'), 'avatar'],
      [() => ChatMessage.create('x').emoji('rocket'), 'emoji'],
      [() => ChatMessage.create('x').thread(' '), 'tmid'],
      [() => ChatMessage.create('x').attachment(7 as never), 'attachments[0]'],
      [() => a().title(1 as never), 'title'],
      [() => a().title('t', 'relative'), 'title_link'],
      [() => a().text({} as never), 'text'],
      [() => a().pretext([] as never), 'pretext'],
      [() => a().color('blue'), 'color'],
      [() => a().field('', 'v'), 'fields[0].title'],
      [() => a().field('t', 'v').field('t', ''), 'fields[1].value'],
      [() => a().field('t', Number.NaN), 'fields[0].value'],
      [() => a().field('t', 'v', 'yes' as never), 'fields[0].short'],
      [() => a().fields([{ title: 't', value: 'v' }, 'x' as never]), 'fields[1]'],
      [() => a().fields('x' as never), 'fields'],
      [() => a().thumb('t.png'), 'thumb_url'],
      [() => a().image('i.png'), 'image_url'],
      [() => a().audio('a.mp3'), 'audio_url'],
      [() => a().video('v.mp4'), 'video_url'],
      [() => a().author(3 as never), 'author_name'],
      [() => a().author('n', 'l'), 'author_link'],
      [() => a().author('n', undefined, 'i'), 'author_icon'],
      [() => a().timestamp(1_700_000_000_000), 'ts'],
      [() => a().link('runs/42'), 'message_link'],
      [() => a().collapsed('yes' as never), 'collapsed'],
      [() => a().merge({ image: 'https://example.com/i.png' } as never), 'image'],
      [() => a().merge({ title_link_download: 'yes' } as never), 'title_link_download'],
      [() => ChatAttachment.create({ image_url: 'rel.png' }), 'image_url'],
      [() => ChatMessage.create('x').attachment({ title_link: 'rel' }), 'title_link'],
    ];
    for (const [run, field] of cases) {
      let error: unknown;
      try {
        run();
      } catch (e) {
        error = e;
      }
      expect(error, field).toBeInstanceOf(InvalidChatPayload);
      expect((error as InvalidChatPayload).field, String(run)).toBe(field);
    }
  });
});
