import { describe, expect, it } from 'vitest';
import { ChatAttachment } from './chat-attachment.js';
import { ChatMessage } from './chat-message.js';
import { InvalidChatPayload } from './errors.js';

describe('ChatMessage', () => {
  it('chains setters and exposes what was set through getters', () => {
    const message = ChatMessage.create('hello').username('Deploy Bot').avatar('https://example.com/bot.png').emoji(':rocket:');
    expect(message.getText()).toBe('hello');
    expect(message.getUsername()).toBe('Deploy Bot');
    expect(message.getAvatar()).toBe('https://example.com/bot.png');
    expect(message.getEmoji()).toBe(':rocket:');
    expect(message.getAttachments()).toEqual([]);
  });

  it('sends the display-name override as alias and omits empty values', () => {
    expect(ChatMessage.create('hi').username('Bot').text('hi again').toArray()).toEqual({ text: 'hi again', alias: 'Bot' });
    expect(ChatMessage.create('').toArray()).toEqual({});
    expect(ChatMessage.create('x').toArray()).not.toHaveProperty('attachments');
  });

  it('accepts several attachments as callback, builder instance and array form, in order', () => {
    const message = ChatMessage.create('three')
      .attachment((a) => a.title('one'))
      .attachment(ChatAttachment.create().title('two'))
      .attachment({ title: 'three', color: 'danger' });
    expect(message.getAttachments()).toEqual([{ title: 'one' }, { title: 'two' }, { title: 'three', color: '#D30230' }]);
  });

  it('renders the complete Rocket.Chat example payload field for field', () => {
    const message = ChatMessage.create('New deployment to *production*')
      .username('Deploy Bot')
      .avatar('https://example.com/bot.png')
      .emoji(':rocket:')
      .attachment((a) =>
        a
          .title('Version 2.1.0', 'https://example.com/releases/2.1.0')
          .text('Zero-downtime deploy')
          .color('good')
          .field('Environment', 'Production', true)
          .field('Duration', '2m 34s', true)
          .thumb('https://example.com/thumb.png')
          .image('https://example.com/graph.png')
          .author('Jane Doe', 'https://example.com/jane', 'https://example.com/jane.png')
          .timestamp(new Date('2025-01-15T10:30:00.000Z'))
          .link('https://example.com/runs/42')
          .collapsed(false),
      );
    expect(JSON.parse(JSON.stringify(message))).toEqual({
      text: 'New deployment to *production*',
      alias: 'Deploy Bot',
      avatar: 'https://example.com/bot.png',
      emoji: ':rocket:',
      attachments: [
        {
          title: 'Version 2.1.0',
          title_link: 'https://example.com/releases/2.1.0',
          text: 'Zero-downtime deploy',
          color: '#35AC19',
          fields: [
            { short: true, title: 'Environment', value: 'Production' },
            { short: true, title: 'Duration', value: '2m 34s' },
          ],
          thumb_url: 'https://example.com/thumb.png',
          image_url: 'https://example.com/graph.png',
          author_name: 'Jane Doe',
          author_link: 'https://example.com/jane',
          author_icon: 'https://example.com/jane.png',
          ts: '2025-01-15T10:30:00.000Z',
          message_link: 'https://example.com/runs/42',
          collapsed: false,
        },
      ],
    });
  });

  it('posts into a thread with tmid', () => {
    expect(ChatMessage.create('reply').thread('msg-1').toArray()).toEqual({ text: 'reply', tmid: 'msg-1' });
  });

  it('rejects an attachment that is neither a callback, a builder nor an object, naming its index', () => {
    const message = ChatMessage.create('x').attachment({ title: 'ok' });
    expect(() => message.attachment('nope' as never)).toThrowError(InvalidChatPayload);
    expect(() => message.attachment('nope' as never)).toThrowError(/attachments\[1\]/);
  });

  it('returns copies from toArray, so later edits do not leak into a rendered payload', () => {
    const message = ChatMessage.create('x').attachment((a) => a.field('A', 'b'));
    const first = message.toArray();
    message.attachment((a) => a.title('later'));
    expect(first.attachments).toHaveLength(1);
  });
});
