import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { startWebhookServer } from './support/webhook-server.js';

// Runs the README's standalone example, unchanged, against a local webhook server.
const root = fileURLToPath(new URL('../', import.meta.url));
const built = existsSync(join(root, 'dist/index.js'));
if (!built && process.env.CI === 'true') throw new Error('dist/ is missing: build before testing');
if (!built) console.warn('readme-example.test.ts: skipped because dist/ is missing; run the build first');

const readme = readFileSync(join(root, 'README.md'), 'utf8');
const example = /## Standalone example[\s\S]*?```js\n([\s\S]*?)```/.exec(readme)?.[1] ?? '';
// Inside the package folder, so `@org/chat-notifier` resolves to this package through its exports map.
const dir = mkdtempSync(join(root, 'test/.readme-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe.runIf(built)('README', () => {
  it('the standalone example posts the documented message', async () => {
    expect(example).toContain("from '@org/chat-notifier'");
    const server = await startWebhookServer();
    try {
      const file = join(dir, 'send.mjs');
      writeFileSync(file, example);
      const { stdout } = await promisify(execFile)(process.execPath, [file], {
        env: { ...process.env, CHAT_WEBHOOK: `${server.origin}/hooks/readme/tok+en` },
        timeout: 15_000,
      });
      expect(stdout.trim()).toBe('200 1');
      expect(server.requests).toHaveLength(1);
      const payload = server.requests[0]!.json as Record<string, unknown> & { attachments: Array<Record<string, unknown>> };
      expect(server.requests[0]!.url).toBe('/hooks/readme/tok+en');
      expect(payload).toMatchObject({ text: 'New deployment to *production*', alias: 'Deploy Bot', emoji: ':rocket:', channel: '#deploys' });
      expect(payload.attachments[0]).toMatchObject({
        title: 'Version 2.1.0',
        color: '#35AC19',
        fields: [
          { short: true, title: 'Environment', value: 'Production' },
          { short: true, title: 'Duration', value: '2m 34s' },
        ],
      });
      expect(payload.attachments[0]!.ts).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    } finally {
      await server.close();
    }
  });
});
