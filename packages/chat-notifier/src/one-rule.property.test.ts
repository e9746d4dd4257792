import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ChatAttachment } from './chat-attachment.js';
import { ChatMessage } from './chat-message.js';
import { InvalidChatPayload } from './errors.js';
import { payloadValue } from '../test/support/payload-values.js';
import { preparePayload } from './prepare-payload.js';
import { validateChatPayload } from './validate-payload.js';

/*
 * One rule per field: for any value, a builder setter refuses it exactly when
 * the plain-payload check refuses the same value under the same key, with the
 * same error code and field (the plain payload's field carries the
 * `attachments[0].` prefix). `undefined` means "not set" in a plain payload, so
 * it is left out.
 */

const value = payloadValue.filter((v) => v !== undefined);

type Outcome = { ok: true } | { ok: false; code: string; field: string };

function outcome(run: () => unknown, prefix = ''): Outcome {
  try {
    run();
    return { ok: true };
  } catch (error) {
    if (!(error instanceof InvalidChatPayload)) throw error;
    return { ok: false, code: error.code, field: error.field.startsWith(prefix) ? error.field.slice(prefix.length) : `(outside ${prefix}) ${error.field}` };
  }
}

const plainAttachment = (attachment: Record<string, unknown>) => () => validateChatPayload({ text: 'x', attachments: [attachment] });
const a = () => ChatAttachment.create();

/** [label, builder call, the same value in a plain payload, the plain payload's field prefix] */
const pairs: Array<[string, (v: unknown) => unknown, (v: unknown) => () => unknown, string]> = [
  ['text()', (v) => ChatMessage.create().text(v as string), (v) => () => validateChatPayload({ text: v, attachments: [{ title: 't' }] }), ''],
  ['username()', (v) => ChatMessage.create('x').username(v as string), (v) => () => validateChatPayload({ text: 'x', alias: v }), ''],
  ['avatar()', (v) => ChatMessage.create('x').avatar(v as string), (v) => () => validateChatPayload({ text: 'x', avatar: v }), ''],
  ['emoji()', (v) => ChatMessage.create('x').emoji(v as string), (v) => () => validateChatPayload({ text: 'x', emoji: v }), ''],
  ['thread()', (v) => ChatMessage.create('x').thread(v as string), (v) => () => validateChatPayload({ text: 'x', tmid: v }), ''],
  ['title()', (v) => a().title(v as string), (v) => plainAttachment({ title: v }), 'attachments[0].'],
  ['title(t, link)', (v) => a().title('t', v as string), (v) => plainAttachment({ title: 't', title_link: v }), 'attachments[0].'],
  ['attachment text()', (v) => a().text(v as string), (v) => plainAttachment({ text: v }), 'attachments[0].'],
  ['pretext()', (v) => a().pretext(v as string), (v) => plainAttachment({ pretext: v }), 'attachments[0].'],
  ['color()', (v) => a().color(v as string), (v) => plainAttachment({ color: v }), 'attachments[0].'],
  ['field(title)', (v) => a().field(v as string, 'x'), (v) => plainAttachment({ fields: [{ title: v, value: 'x' }] }), 'attachments[0].'],
  ['field(value)', (v) => a().field('t', v as string), (v) => plainAttachment({ fields: [{ title: 't', value: v }] }), 'attachments[0].'],
  ['field(short)', (v) => a().field('t', 'x', v as boolean), (v) => plainAttachment({ fields: [{ title: 't', value: 'x', short: v }] }), 'attachments[0].'],
  ['fields()', (v) => a().fields(v as never), (v) => plainAttachment({ fields: v }), 'attachments[0].'],
  ['fields([entry])', (v) => a().fields([v] as never), (v) => plainAttachment({ fields: [v] }), 'attachments[0].'],
  ['thumb()', (v) => a().thumb(v as string), (v) => plainAttachment({ thumb_url: v }), 'attachments[0].'],
  ['image()', (v) => a().image(v as string), (v) => plainAttachment({ image_url: v }), 'attachments[0].'],
  ['audio()', (v) => a().audio(v as string), (v) => plainAttachment({ audio_url: v }), 'attachments[0].'],
  ['video()', (v) => a().video(v as string), (v) => plainAttachment({ video_url: v }), 'attachments[0].'],
  ['author()', (v) => a().author(v as string), (v) => plainAttachment({ author_name: v }), 'attachments[0].'],
  ['author(n, link)', (v) => a().author('n', v as string), (v) => plainAttachment({ author_name: 'n', author_link: v }), 'attachments[0].'],
  ['author(n, -, icon)', (v) => a().author('n', undefined, v as string), (v) => plainAttachment({ author_name: 'n', author_icon: v }), 'attachments[0].'],
  ['timestamp()', (v) => a().timestamp(v as number), (v) => plainAttachment({ ts: v }), 'attachments[0].'],
  ['link()', (v) => a().link(v as string), (v) => plainAttachment({ message_link: v }), 'attachments[0].'],
  ['collapsed()', (v) => a().collapsed(v as boolean), (v) => plainAttachment({ collapsed: v }), 'attachments[0].'],
];

const attachmentKeys = ['title', 'title_link', 'title_link_download', 'text', 'pretext', 'color', 'fields', 'thumb_url', 'image_url', 'audio_url', 'video_url', 'author_name', 'author_link', 'author_icon', 'ts', 'message_link', 'collapsed', 'footer', 'actions', 'image', 'imageurl', 'shrot', ''];

describe('one rule per field: builders and plain payloads judge every value the same', () => {
  it('each setter refuses a value exactly when the plain payload refuses it, with the same code and field', () => {
    fc.assert(
      fc.property(fc.constantFrom(...pairs), value, ([label, builder, plain, prefix], v) => {
        expect(outcome(plain(v), prefix), `${label} with ${fc.stringify(v)}`).toEqual(outcome(() => builder(v)));
      }),
      { numRuns: 3000 },
    );
  });

  it('the object form (ChatAttachment.create / merge) refuses a key and value exactly when the plain payload does', () => {
    fc.assert(
      fc.property(fc.constantFrom(...attachmentKeys), value, (key, v) => {
        const data = { [key]: v };
        const plain = outcome(plainAttachment(data), 'attachments[0].');
        // The attachment itself (an empty key) is `attachments[0]` in a payload and `attachment` on its own.
        const same = !plain.ok && plain.field === '(outside attachments[0].) attachments[0]' ? { ...plain, field: 'attachment' } : plain;
        expect(same, `${key}: ${fc.stringify(v)}`).toEqual(outcome(() => ChatAttachment.create(data as never)));
      }),
      { numRuns: 2000 },
    );
  });

  it('accepted values are posted the same way from a builder and from a plain payload', () => {
    const built = ChatMessage.create('x')
      .attachment((b) => b.color('good').timestamp(1_700_000_000).field('n', 0).field('b', false, true))
      .toArray();
    const plain = validateChatPayload({ text: 'x', attachments: [{ color: 'good', ts: 1_700_000_000, fields: [{ title: 'n', value: 0 }, { title: 'b', value: false, short: true }] }] });
    expect(plain).toEqual(built);
    // And that is what is posted.
    const options = { override_channel: true, max_payload_bytes: 1 << 20, instance: 'chat' };
    const prepared = preparePayload(null, { text: 'x', attachments: [{ color: 'good', ts: 1_700_000_000, fields: [{ title: 'n', value: 0 }, { title: 'b', value: false, short: true }] }] }, options);
    expect(JSON.parse(prepared.body)).toEqual(built);
    expect(prepared.payload).toEqual(built);
  });

  it('the cases the review found, each refused (or accepted) by both', () => {
    const cases: Array<[string, () => unknown, () => unknown, boolean]> = [
      ['colour blue', () => a().color('blue'), plainAttachment({ color: 'blue' }), false],
      ['ts not a date', () => a().timestamp('not a date'), plainAttachment({ ts: 'not a date' }), false],
      ['ts in ms', () => a().timestamp(1_700_000_000_000), plainAttachment({ ts: 1_700_000_000_000 }), false],
      ['blank tmid', () => ChatMessage.create('x').thread('   '), () => validateChatPayload({ text: 'x', tmid: '   ' }), false],
      ['field value false', () => a().field('t', false), plainAttachment({ fields: [{ title: 't', value: false }] }), true],
      ['typo in a fields entry', () => ChatAttachment.create({ fields: [{ title: 'a', value: 'b', shrot: true } as never] }), plainAttachment({ fields: [{ title: 'a', value: 'b', shrot: true }] }), false],
    ];
    for (const [label, builder, plain, accepted] of cases) {
      expect(outcome(builder).ok, `builder: ${label}`).toBe(accepted);
      expect(outcome(plain).ok, `plain: ${label}`).toBe(accepted);
    }
    expect(outcome(() => ChatAttachment.create({ fields: [{ title: 'a', value: 'b', shrot: true } as never] }))).toEqual({ ok: false, code: 'CHAT_INVALID_PAYLOAD', field: 'fields[0].shrot' });
  });
});

describe('attachments from another copy of the package', () => {
  it('a ChatAttachment from a second copy of the module is kept, not silently dropped', async () => {
    // A second instance of the module, as the CJS build is next to the ESM one.
    // @ts-expect-error -- the query is for Vite, which loads the module a second time; TypeScript knows no such file.
    const other = (await import('./chat-attachment.js?second-copy')) as { ChatAttachment: typeof ChatAttachment };
    expect(other.ChatAttachment).not.toBe(ChatAttachment);
    const foreign = other.ChatAttachment.create().title('Deploy failed').color('danger').field('Env', 'prod');
    expect(foreign instanceof ChatAttachment).toBe(false);
    const message = ChatMessage.create('see attachment').attachment(foreign as never);
    expect(message.toArray().attachments).toEqual([{ title: 'Deploy failed', color: '#D30230', fields: [{ short: false, title: 'Env', value: 'prod' }] }]);
  });

  it('an object that is neither a ChatAttachment nor a plain object is refused, not posted empty', () => {
    class NotAnAttachment {
      title = 'x';
    }
    for (const input of [new NotAnAttachment(), new Map(), new Date(), [{ title: 'x' }]]) {
      expect(outcome(() => ChatMessage.create('x').attachment(input as never))).toMatchObject({ ok: false, field: 'attachments[0]' });
    }
    expect(ChatMessage.create('x').attachment(Object.assign(Object.create(null) as object, { title: 'ok' })).toArray().attachments).toEqual([{ title: 'ok' }]);
  });
});
