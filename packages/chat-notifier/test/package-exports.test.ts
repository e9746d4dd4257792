import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type * as Api from '../src/index.js';

// Runs against the built output (turbo builds before testing), so a broken exports map fails here.
const dist = fileURLToPath(new URL('../dist/', import.meta.url));
const built = existsSync(`${dist}index.js`) && existsSync(`${dist}testing.cjs`);
if (!built && process.env.CI === 'true') throw new Error('dist/ is missing: run `pnpm --filter @org/chat-notifier build` before the tests');
if (!built) console.warn('package-exports.test.ts: skipped because dist/ is missing; run the build first');

describe.runIf(built)('published entry points', () => {
  it('ESM and CJS builds of both entries export the public API', async () => {
    const esm = (await import(`${dist}index.js`)) as Record<string, unknown>;
    const esmTesting = (await import(`${dist}testing.js`)) as Record<string, unknown>;
    const require = createRequire(import.meta.url);
    const cjs = require(`${dist}index.cjs`) as Record<string, unknown>;
    const cjsTesting = require(`${dist}testing.cjs`) as Record<string, unknown>;
    for (const mod of [esm, cjs]) {
      for (const name of ['ChatMessage', 'ChatAttachment', 'ChatChannel', 'ChatChannelRegistry', 'CouldNotSendNotification', 'UndiciTransport']) {
        expect(typeof mod[name], name).toBe('function');
      }
    }
    for (const mod of [esmTesting, cjsTesting]) {
      expect(typeof mod.ChatFake).toBe('function');
      expect(typeof mod.RecordingTransport).toBe('function');
    }
  });

  it('an attachment built with the CJS build is kept by the ESM ChatMessage (dual package)', async () => {
    const esm = (await import(`${dist}index.js`)) as typeof Api;
    const cjs = createRequire(import.meta.url)(`${dist}index.cjs`) as typeof Api;
    const attachment = cjs.ChatAttachment.create().title('Deploy failed').color('danger');
    const message = esm.ChatMessage.create('see attachment').attachment(attachment);
    expect(message.toArray().attachments).toEqual([{ title: 'Deploy failed', color: '#D30230' }]);
  });
});
