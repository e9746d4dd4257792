import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decodeFrame } from './raw-socket.js';

describe('decodeFrame, on whatever a server sends', () => {
  it('never throws, and answers a frame only for a JSON object with a string event', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.json(), fc.jsonValue().map((value) => JSON.stringify(value))), (text) => {
        const frame = decodeFrame(text);
        if (frame) {
          expect(typeof frame.event).toBe('string');
          expect(frame.raw).toBe(text);
        }
      }),
    );
  });

  it('decodes a JSON-encoded data string once, as pusher-js does, and keeps the original', () => {
    const frame = decodeFrame('{"event":"pusher:connection_established","data":"{\\"socket_id\\":\\"1.2\\",\\"activity_timeout\\":30}"}');
    expect(frame?.data).toEqual({ socket_id: '1.2', activity_timeout: 30 });
    expect(frame?.rawData).toBe('{"socket_id":"1.2","activity_timeout":30}');
    expect(decodeFrame('{"event":"e","data":"plain text"}')?.data).toBe('plain text');
    expect(decodeFrame('{"event":5}')).toBeUndefined();
    expect(decodeFrame('[1]')).toBeUndefined();
  });
});
