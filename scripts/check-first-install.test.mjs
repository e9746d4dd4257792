// What the first-install check counts as a problem, on lines real installs printed.
// Run with `node --test scripts/`.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { expectedBinLinks, installWarnings } from './check-first-install.mjs';

const cleanInstall = `Scope: all 14 workspace projects
Lockfile is up to date, resolution step is skipped
Packages: +456
++++++++++++++++++++++++++++++++++++++++
devDependencies:
+ turbo 2.11.11
Done in 5.2s using pnpm v10.34.8`;

test('a clean install has no warnings', () => {
  assert.deepEqual(installWarnings(cleanInstall), []);
});

test('each kind of warning a first install printed before is caught', () => {
  const lines = [
    " WARN  Failed to create bin at /tmp/fi/apps/demo/node_modules/.bin/realtime-server. ENOENT: no such file or directory, open '/tmp/fi/apps/server/dist/bin.js'",
    '│   Ignored build scripts: bufferutil@4.0.7, utf-8-validate@6.0.3.             │',
    'npm warn Unknown project config "auto-install-peers". This will stop working in the next major version of npm.',
    ' WARN  deprecated subdependencies found: glob@7.2.3',
    ' ERR_PNPM_OUTDATED_LOCKFILE  Cannot install with "frozen-lockfile" because pnpm-lock.yaml is not up to date',
  ];
  assert.equal(installWarnings([cleanInstall, ...lines].join('\n')).length, lines.length);
});

test('words that only contain "warn" are not warnings', () => {
  assert.deepEqual(installWarnings('+ pino-warnings-to-stdout 1.0.0\nforewarned 2.0.0'), []);
});

test('a bin is expected in every workspace package that depends on its package', () => {
  const packages = [
    { dir: '/r/apps/server', manifest: { name: '@org/realtime-server', bin: { 'realtime-server': './bin/realtime-server.js' } } },
    { dir: '/r/apps/demo', manifest: { name: '@org/demo', dependencies: { '@org/realtime-server': 'workspace:*' } } },
    { dir: '/r/bench', manifest: { name: '@org/bench', devDependencies: { '@org/realtime-server': 'workspace:*' } } },
    { dir: '/r/packages/single', manifest: { name: '@org/single', bin: './cli.js' } },
    { dir: '/r/packages/user', manifest: { name: '@org/user', dependencies: { '@org/single': 'workspace:*', zod: '^4' } } },
  ];
  assert.deepEqual(expectedBinLinks(packages).sort(), [
    join('/r/apps/demo/node_modules/.bin/realtime-server'),
    join('/r/bench/node_modules/.bin/realtime-server'),
    join('/r/packages/user/node_modules/.bin/single'),
  ]);
});
