import { describe, expect, it } from 'vitest';
import { ChatAttachment } from './chat-attachment.js';
import { InvalidChatPayload } from './errors.js';

describe('ChatAttachment', () => {
  it('maps good, warning and danger to Rocket.Chat hex colours', () => {
    expect(ChatAttachment.create().color('good').toArray().color).toBe('#35AC19');
    expect(ChatAttachment.create().color('warning').toArray().color).toBe('#FCB316');
    expect(ChatAttachment.create().color('danger').toArray().color).toBe('#D30230');
  });

  it('passes hex colours through unchanged', () => {
    expect(ChatAttachment.create().color('#36a64f').toArray().color).toBe('#36a64f');
    expect(ChatAttachment.create().color('#FFF').toArray().color).toBe('#FFF');
  });

  it('refuses any other colour with an error naming the field and the accepted values', () => {
    const attempt = () => ChatAttachment.create().color('red');
    expect(attempt).toThrowError(InvalidChatPayload);
    expect(attempt).toThrowError('Invalid chat payload: color: expected "good", "warning", "danger" or a hex colour like "#36a64f", got "red"');
    expect(() => ChatAttachment.create().color('#12345')).toThrowError(/color/);
  });

  it('appends fields with short defaulting to false, stringifying numbers and booleans', () => {
    const fields = ChatAttachment.create().field('Env', 'prod').field('Errors', 0, true).field('Healthy', false).toArray().fields;
    expect(fields).toEqual([
      { short: false, title: 'Env', value: 'prod' },
      { short: true, title: 'Errors', value: '0' },
      { short: false, title: 'Healthy', value: 'false' },
    ]);
  });

  it('sends a Unix-seconds or Date timestamp as ISO-8601', () => {
    expect(ChatAttachment.create().timestamp(1736937000).toArray().ts).toBe('2025-01-15T10:30:00.000Z');
    expect(ChatAttachment.create().timestamp(new Date(Date.UTC(2025, 0, 15))).toArray().ts).toBe('2025-01-15T00:00:00.000Z');
  });

  it('refuses millisecond-sized numbers instead of posting a date thousands of years away', () => {
    expect(() => ChatAttachment.create().timestamp(1736937000000)).toThrowError(/looks like milliseconds/);
    expect(() => ChatAttachment.create().timestamp(Number.NaN)).toThrowError(/ts: expected Unix seconds/);
    expect(() => ChatAttachment.create().timestamp(new Date('nope'))).toThrowError(/invalid Date/);
  });

  it('sets author, title link, media and collapse with Rocket.Chat field names, leaving out unset parts', () => {
    expect(ChatAttachment.create().author('Jane').title('T').toArray()).toEqual({ author_name: 'Jane', title: 'T' });
    expect(
      ChatAttachment.create().audio('https://e.x/a.mp3').video('https://e.x/v.mp4').pretext('pre').collapsed().toArray(),
    ).toEqual({ audio_url: 'https://e.x/a.mp3', video_url: 'https://e.x/v.mp4', pretext: 'pre', collapsed: true });
  });

  it('builds from the array form, normalising colour, timestamp and fields', () => {
    const attachment = ChatAttachment.create({
      title: 'Disk',
      text: 'almost full',
      color: 'warning',
      ts: 1736937000,
      fields: [{ title: 'Used', value: 97 }],
      image_url: 'https://example.com/disk.png',
    });
    expect(attachment.toArray()).toEqual({
      title: 'Disk',
      text: 'almost full',
      color: '#FCB316',
      ts: '2025-01-15T10:30:00.000Z',
      fields: [{ short: false, title: 'Used', value: '97' }],
      image_url: 'https://example.com/disk.png',
    });
  });

  it('rejects an array form that is not an object', () => {
    expect(() => ChatAttachment.create([] as never)).toThrowError(/attachment: expected an object/);
  });
});
