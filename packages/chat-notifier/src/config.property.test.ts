import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ChatChannelRegistry } from './chat-channel-registry.js';
import { resolveChatConfig } from './config.js';
import { InvalidChatConfig } from './errors.js';

const KEYS = ['webhook', 'channel', 'override_channel', 'timeout', 'connect_timeout', 'verify', 'http_errors', 'proxy', 'headers', 'retry', 'max_payload_bytes'];
const WEBHOOK = 'https://chat.example.test/hooks/id/s3cr3t-token-value';

const hostileValue = fc.oneof(
  fc.anything({ withBigInt: true, withDate: true, withMap: true, withSet: true, withNullPrototype: true, withTypedArray: true, withSparseArray: true }),
  fc.constantFrom(WEBHOOK, 'http://user:pa55word-x@127.0.0.1:1', -1, 0, 601, 1e9, Number.NaN, '', '#general', true, false, null),
);
const config = fc.oneof(
  fc.dictionary(fc.oneof(fc.constantFrom(...KEYS, 'retry', 'typo', '__proto__', 'constructor'), fc.string()), hostileValue, { maxKeys: 6 }),
  fc.record({ webhook: fc.constant(WEBHOOK), retry: fc.dictionary(fc.constantFrom('retries', 'statuses', 'min_delay', 'jitter', 'nope'), hostileValue) }),
  fc.record({ webhook: fc.constant(WEBHOOK), headers: fc.dictionary(fc.string(), hostileValue, { maxKeys: 3 }) }),
  hostileValue,
);

/** Each problem in the message starts with the key it is about (or says the whole config is not an object). */
function assertNamesKeys(message: string): void {
  const prefix = 'Invalid config for chat instance "chat": ';
  expect(message.startsWith(prefix), message).toBe(true);
  for (const problem of message.slice(prefix.length).split('; ')) {
    expect(problem, message).toMatch(/^(expected an object|unknown option|(webhook|channel|override_channel|timeout|connect_timeout|verify|http_errors|proxy|headers|retry|max_payload_bytes)\b)/);
  }
}

describe('hostile config input', () => {
  it('either resolves or throws InvalidChatConfig whose every problem names its key, and never echoes the secrets', () => {
    fc.assert(
      fc.property(config, (input) => {
        try {
          resolveChatConfig('chat', input, {});
        } catch (error) {
          expect(error).toBeInstanceOf(InvalidChatConfig);
          const message = (error as Error).message;
          assertNamesKeys(message);
          expect(message).not.toContain('s3cr3t-token-value');
          expect(message).not.toContain('pa55word-x');
        }
      }),
      { numRuns: 1000 },
    );
  });

  it('the registry refuses hostile instance tables with InvalidChatConfig only', () => {
    fc.assert(
      fc.property(fc.oneof(fc.dictionary(fc.string(), config, { maxKeys: 3 }), hostileValue), (instances) => {
        let registry: ChatChannelRegistry | undefined;
        try {
          registry = new ChatChannelRegistry({ instances: instances as never, env: {} });
        } catch (error) {
          expect(error).toBeInstanceOf(InvalidChatConfig);
        } finally {
          void registry?.close();
        }
      }),
      { numRuns: 300 },
    );
  });
});
