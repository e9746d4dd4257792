import { describe, expect, it } from 'vitest';
import { ChatChannel } from '../chat-channel.js';
import type { ChatHttpResponse } from '../transport.js';
import { RecordingTransport } from './recording-transport.js';

describe('RecordingTransport', () => {
  it('records what a ChatChannel would post, with the parsed payload and headers', async () => {
    const transport = new RecordingTransport();
    const channel = new ChatChannel({ webhook: 'https://chat.example.com/hooks/a/b', headers: { 'x-env': 'test' } }, { transport });
    const result = await channel.send('#dev', 'dry run');
    expect(result).toMatchObject({ ok: true, status: 200, body: '{"success":true}' });
    expect(transport.requests).toHaveLength(1);
    expect(transport.requests[0]).toMatchObject({
      url: 'https://chat.example.com/hooks/a/b',
      payload: { text: 'dry run', channel: '#dev' },
      headers: { 'x-env': 'test', 'content-type': 'application/json' },
    });
  });

  it('answers with a custom responder, which drives the retry policy like a real server', async () => {
    const transport: RecordingTransport = new RecordingTransport((request): ChatHttpResponse =>
      transport.requests.length === 1 ? { status: 503, headers: { 'retry-after': '0' }, body: '' } : { status: 200, headers: {}, body: request.body },
    );
    const channel = new ChatChannel({ webhook: 'https://chat.example.com/hooks/hook-id-1/tok3n-value' }, { transport }); // realistic id and token: an echo holding a 1–5 character secret is dropped whole
    const result = await channel.send(null, 'again');
    expect(result.attempts).toBe(2);
    expect(result.body).toBe('{"text":"again"}');
  });
});

describe('RecordingTransport printing', () => {
  it('keeps exact URLs for assertions but masks them in inspect and JSON', async () => {
    const { inspect } = await import('node:util');
    const transport = new RecordingTransport();
    await transport.post({
      url: 'https://chat.example.com/hooks/id/rec0rded-T0KEN',
      headers: { authorization: 'Bearer abcdef123456' },
      body: '{"text":"x"}',
      signal: new AbortController().signal,
    });
    expect(transport.requests[0]!.url).toBe('https://chat.example.com/hooks/id/rec0rded-T0KEN');
    const printed = `${inspect(transport, { depth: Infinity })}${JSON.stringify(transport)}`;
    expect(printed).toContain('https://chat.example.com/hooks/***');
    expect(printed).not.toContain('rec0rded-T0KEN');
    expect(printed).not.toContain('abcdef123456');
  });
});
