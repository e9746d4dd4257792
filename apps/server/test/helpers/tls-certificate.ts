import { execFileSync } from 'node:child_process';
import { createPrivateKey } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A self-signed certificate for 127.0.0.1 with its key, made now with openssl so nothing secret lives in the repository. */
export interface TestCertificate {
  readonly cert: string;
  /** The key, unencrypted PEM. */
  readonly key: string;
  /** The same key encrypted with `passphrase`: the certificate still goes with it. */
  encryptedKey(passphrase: string): string;
}

export function makeTestCertificate(): TestCertificate {
  const dir = mkdtempSync(join(tmpdir(), 'realtime-cert-'));
  try {
    execFileSync('openssl', [
      'req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-sha256', '-days', '1',
      '-subj', '/CN=127.0.0.1', '-keyout', join(dir, 'key.pem'), '-out', join(dir, 'cert.pem'),
    ], { stdio: 'ignore' });
    const key = readFileSync(join(dir, 'key.pem'), 'utf8');
    return {
      cert: readFileSync(join(dir, 'cert.pem'), 'utf8'),
      key,
      encryptedKey: (passphrase) =>
        createPrivateKey(key).export({ type: 'pkcs8', format: 'pem', cipher: 'aes-128-cbc', passphrase }).toString(),
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
