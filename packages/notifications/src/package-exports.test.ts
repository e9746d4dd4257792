import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

// Checks the built package (turbo builds before testing): what `@org/notifications/contract` resolves to.
const root = fileURLToPath(new URL('..', import.meta.url));
const pkg = JSON.parse(readFileSync(`${root}package.json`, 'utf8')) as { exports: Record<string, Record<string, Record<string, string>>> };
const contract = pkg.exports['./contract'];

/** The runtime half of the contract: what the bell, chat-notifier and the API share. */
const RUNTIME_EXPORTS = [
  'ARCHIVE_ROUTE',
  'CHANNEL_AUTH_ROUTE',
  'DELETE_ALL_ROUTE',
  'DELETE_ROUTE',
  'GET_ROUTE',
  'LIST_ROUTE',
  'MARK_ALL_READ_ROUTE',
  'MARK_READ_ROUTE',
  'MARK_UNREAD_ROUTE',
  'UNARCHIVE_ROUTE',
  'UNREAD_ROUTE',
  'buildPath',
  'CSRF_TOKEN_HEADER',
  'NOTIFICATION_EVENTS',
  'NOTIFICATION_EVENT_NAMES',
  'NOTIFICATION_ROUTES',
  'ON_DEMAND_NOTIFIABLE',
  'OnDemandRecipient',
  'SAFE_URL_RULE',
  'SOCKET_ID_HEADER',
  'defaultChannelFor',
  'isNotificationLiveEventName',
  'isOnDemandNotifiable',
  'isSafeUrl',
];

describe('the ./contract subpath', () => {
  it('points import and require at built types and JS', () => {
    const files = [contract?.import?.types, contract?.import?.default, contract?.require?.types, contract?.require?.default];
    expect(files).toEqual(['./dist/contract.d.ts', './dist/contract.js', './dist/contract.d.cts', './dist/contract.cjs']);
    for (const file of files) expect([file, existsSync(`${root}${file}`)]).toEqual([file, true]);
  });

  it('is self-contained types: no imports in its .d.ts', () => {
    const dts = readFileSync(`${root}dist/contract.d.ts`, 'utf8');
    expect(dts).not.toMatch(/^\s*import\b|require\(/m);
    for (const name of ['NotificationResource', 'NotificationAction', 'NotificationIcon', 'ActionType', 'ListResponse', 'UnreadListResponse', 'ItemResponse', 'MutationResponse', 'MarkAllReadResponse', 'DeleteResponse', 'ErrorResponse', 'NotificationLiveEventName', 'NotificationLiveEvents', 'NotificationLiveEventPayload', 'NotificationLiveEvent', 'Notifiable', 'Route', ...RUNTIME_EXPORTS]) {
      expect(dts).toMatch(new RegExp(`\\b${name}\\b`));
    }
  });

  it('exports the runtime contract, the same from import and require', async () => {
    const esm = (await import(`${root}dist/contract.js`)) as Record<string, unknown>;
    const cjs = createRequire(import.meta.url)(`${root}dist/contract.cjs`) as Record<string, unknown>;
    expect(Object.keys(esm).sort()).toEqual([...RUNTIME_EXPORTS].sort());
    expect(Object.keys(cjs).sort()).toEqual([...RUNTIME_EXPORTS].sort());
    // Two copies of the module (ESM and CommonJS) brand on-demand recipients alike.
    expect(esm.ON_DEMAND_NOTIFIABLE).toBe(cjs.ON_DEMAND_NOTIFIABLE);
    expect(esm.NOTIFICATION_ROUTES).toEqual(cjs.NOTIFICATION_ROUTES);
  });
});
