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

/**
 * Each problem starts with the key it is about (or says the whole config is not an object), and the message
 * is those problems. Taken from `problems`: a key may itself contain the "; " that joins them in the message.
 */
function assertNamesKeys(error: InvalidChatConfig): void {
  const prefix = 'Invalid config for chat instance "chat": ';
  const { message } = error;
  expect(message.startsWith(prefix), message).toBe(true);
  if (error.problems.length === 1 && error.problems[0] === message) return expect(message.slice(prefix.length)).toMatch(/^(expected an object|webhook\b)/);
  expect(message).toBe(`${prefix}${error.problems.join('; ')}`);
  for (const problem of error.problems) {
    expect(problem, message).toMatch(/^(expected an object|unknown option|(webhook|channel|override_channel|timeout|connect_timeout|verify|http_errors|proxy|headers|retry|max_payload_bytes)\b)/);
  }
}

describe('hostile config input', () => {
  it('does not echo a secret through the file system error of a CA bundle path (a counterexample fast-check found)', () => {
    const webhook = 'https://chat.example.test/hooks/id/s3cr3t-token-value';
    expect(() => resolveChatConfig('chat', { webhook, verify: webhook }, {})).toThrow(InvalidChatConfig);
    try {
      resolveChatConfig('chat', { webhook, verify: webhook }, {});
    } catch (error) {
      expect((error as Error).message).toContain('verify: cannot read CA bundle');
      expect((error as Error).message).not.toContain('s3cr3t-token-value');
    }
  });

  it('lists each problem on its own and quotes unknown keys, also one holding the separator (a counterexample fast-check found)', () => {
    try {
      resolveChatConfig('chat', { webhook: new Set(), '; ': new Set(), 'say "hi"\n': 1 }, {});
      expect.unreachable('the config is invalid');
    } catch (error) {
      expect(error).toBeInstanceOf(InvalidChatConfig);
      const { problems, message } = error as InvalidChatConfig;
      expect(problems).toHaveLength(2);
      expect(problems[0]).toMatch(/^webhook: /);
      expect(problems[1]).toBe('unknown option(s) "; ", "say \\"hi\\"\\n"');
      expect(message).toBe(`Invalid config for chat instance "chat": ${problems.join('; ')}`);
    }
  });

  it('either resolves or throws InvalidChatConfig whose every problem names its key, and never echoes the secrets', () => {
    fc.assert(
      fc.property(config, (input) => {
        try {
          resolveChatConfig('chat', input, {});
        } catch (error) {
          expect(error).toBeInstanceOf(InvalidChatConfig);
          const message = (error as Error).message;
          assertNamesKeys(error as InvalidChatConfig);
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

describe('header rules match undici', () => {
  it('a header value or name is accepted by the config exactly when undici accepts it on a request', async () => {
    const { Agent } = await import('undici');
    const agent = new Agent({ connect: { timeout: 1000 } });
    const undiciAccepts = async (name: string, value: string) => {
      try {
        // Port 9 on loopback: a valid request fails to connect; an invalid one is refused before that.
        await agent.request({ origin: 'http://127.0.0.1:9', path: '/', method: 'POST', headers: { [name]: value } });
        return true;
      } catch (error) {
        return (error as { code?: string }).code !== 'UND_ERR_INVALID_ARG';
      }
    };
    const text = fc.oneof(fc.string({ unit: 'binary', maxLength: 6 }), fc.string({ unit: fc.integer({ min: 0, max: 0x200 }).map((c) => String.fromCharCode(c)), maxLength: 6 }));
    try {
      await fc.assert(
        fc.asyncProperty(fc.oneof(fc.constant('x-tenant'), text), text, async (name, value) => {
          fc.pre(!['host', 'content-length', 'content-type', 'transfer-encoding', 'connection', 'keep-alive', 'upgrade', 'expect'].includes(name.toLowerCase()));
          let configAccepts = true;
          try {
            resolveChatConfig('chat', { webhook: WEBHOOK, headers: { [name]: value } }, {});
          } catch (error) {
            expect(error).toBeInstanceOf(InvalidChatConfig);
            configAccepts = false;
          }
          // NUL, CR and LF are refused by both; undici checks the same character class for the rest.
          expect(configAccepts, `${JSON.stringify(name)}: ${JSON.stringify(value)}`).toBe(await undiciAccepts(name, value));
        }),
        { numRuns: 300 },
      );
    } finally {
      await agent.close();
    }
  });
});
