import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ChatChannelRegistry } from '../chat-channel-registry.js';
import type { ChatTransport } from '../transport.js';
import { ChatFake } from './chat-fake.js';

/*
 * The fake must refuse exactly what the real registry refuses, with the same
 * error: configs at construction, and instance names at send time.
 */

const WEBHOOK = 'https://chat.example.test/hooks/id/token';
const noNetwork: ChatTransport = { post: () => Promise.resolve({ status: 200, headers: {}, body: '{"success":true}' }) };

const name = fc.oneof(
  fc.constantFrom('chat', 'chat-alerts', 'chat-typo', 'chat-ops', 'Chat', 'chat-', 'chat--x', 'chats', 'slack', '', 'chat-a_b', 'chat-ALERTS'),
  fc.string({ maxLength: 12 }).map((s) => `chat-${s}`),
  fc.string({ maxLength: 12 }),
);

const instanceConfig = fc.oneof(
  fc.constant({ webhook: WEBHOOK }),
  fc.constant({}),
  fc.record({ webhook: fc.constantFrom(WEBHOOK, 'http://x/hooks/a', 'not a url', 'https://chat.example.test/hooks/a/b?c') }, { requiredKeys: [] }),
  fc.record(
    {
      webhook: fc.constant(WEBHOOK),
      channel: fc.oneof(fc.constantFrom('#general', ''), fc.integer()),
      timeout: fc.oneof(fc.double({ noNaN: false }), fc.constant('10')),
      retry: fc.oneof(fc.constant(false), fc.record({ retries: fc.integer({ min: -2, max: 12 }) })),
      verify: fc.oneof(fc.boolean(), fc.constant('/no/such/ca.pem')),
      typo_option: fc.constant(1),
    },
    { requiredKeys: ['webhook'] },
  ),
  // Proxies as undici will read them: credentials with malformed percent-escapes, half credentials, paths.
  fc.record({
    webhook: fc.constant(WEBHOOK),
    proxy: fc.oneof(
      fc.constantFrom('http://user:100%pure@127.0.0.1:3128', 'http://%E0%A4%A@127.0.0.1:3128', 'http://user:%@127.0.0.1:3128', 'http://user:%25ok@127.0.0.1:3128', 'http://127.0.0.1:3128/x', 'https://u:p@proxy.example:8443/'),
      fc
        .tuple(fc.stringMatching(/^[a-z%0-9]{1,6}$/), fc.stringMatching(/^[a-zA-Z%0-9]{0,8}$/))
        .map(([user, password]) => `http://${user}:${password}@127.0.0.1:3128`),
    ),
  }),
  fc.anything(),
);

const options = fc.record(
  {
    instances: fc.oneof(fc.dictionary(name, instanceConfig, { maxKeys: 3 }), fc.anything()),
    env: fc.dictionary(fc.constantFrom('CHAT_WEBHOOK', 'CHAT_TYPO_WEBHOOK', 'CHAT_OPS_WEBHOOK', 'OTHER'), fc.constantFrom(WEBHOOK, '', 'garbage')),
  },
  { requiredKeys: ['env'] },
);

type Outcome = { ok: true } | { ok: false; name: string; code: unknown; message: string };

function outcome(run: () => unknown): Outcome {
  try {
    run();
    return { ok: true };
  } catch (error) {
    const e = error as { name: string; code?: unknown; message: string };
    return { ok: false, name: e.name, code: e.code, message: e.message };
  }
}

async function asyncOutcome(run: () => Promise<unknown>): Promise<Outcome> {
  try {
    await run();
    return { ok: true };
  } catch (error) {
    const e = error as { name: string; code?: unknown; message: string };
    return { ok: false, name: e.name, code: e.code, message: e.message };
  }
}

describe('ChatFake agrees with ChatChannelRegistry', () => {
  it('on arbitrary configs (construction) and instance names (send)', async () => {
    await fc.assert(
      fc.asyncProperty(options, fc.array(name, { minLength: 1, maxLength: 4 }), async (opts, names) => {
        let registry: ChatChannelRegistry | undefined;
        let fake: ChatFake | undefined;
        // The real transports are built too (undici parses the proxy there); nothing is sent by building them.
        let production: ChatChannelRegistry | undefined;
        const built = outcome(() => (production = new ChatChannelRegistry(opts as never)));
        await production?.close();
        const real = outcome(() => (registry = new ChatChannelRegistry({ ...(opts as object), transport: () => noNetwork })));
        const faked = outcome(() => (fake = new ChatFake(opts as never)));
        expect(faked).toEqual(real);
        expect(built).toEqual(real);
        if (!registry || !fake) return;
        try {
          for (const instance of names) {
            const notification = { via: () => [instance], toChat: () => 'hello' };
            const a = await asyncOutcome(() => registry!.send({}, notification, instance));
            const b = await asyncOutcome(() => fake!.send({}, notification, instance));
            expect(b, `instance ${JSON.stringify(instance)}`).toEqual(a);
          }
        } finally {
          await registry.close();
        }
      }),
      { numRuns: 300 },
    );
  });

  it('refuses the typo the real registry refuses (the reported bug)', async () => {
    const options = { instances: { chat: { webhook: WEBHOOK } }, env: {} };
    const fake = new ChatFake(options);
    const notification = { via: () => ['chat-typo'], toChat: () => 'hello' };
    await expect(fake.send({}, notification, 'chat-typo')).rejects.toThrowError(
      'Unknown chat instance "chat-typo". Configured: "chat". Add it to the instances option or set CHAT_TYPO_WEBHOOK.',
    );
    await expect(fake.notify({}, notification)).rejects.toMatchObject({ code: 'CHAT_DELIVERY_FAILED', results: [{ code: 'CHAT_UNKNOWN_INSTANCE' }] });
    fake.assertNothingSent();
  });
});
