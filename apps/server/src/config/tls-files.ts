import { createPrivateKey } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import type { TlsOptions } from '@org/transport-uws';
import { ConfigError } from './load-config.js';
import type { ServerConfig } from './schema.js';

type TlsConfig = NonNullable<ServerConfig['options']['tls']>;

/**
 * Reads the certificate files and decrypts the key, as the daemon does before
 * it listens, so that `config check` fails on the same unreadable file or
 * wrong passphrase. Messages name the key and the path (Node's message names
 * the path and the errno; OpenSSL's names no input), never the passphrase.
 */
export async function checkTlsFiles(tls: TlsConfig): Promise<TlsOptions> {
  const read = async (key: string, file: string) => {
    try {
      return await readFile(file, 'utf8');
    } catch (error) {
      throw new ConfigError(`servers.*.options.tls.${key}: cannot read ${file}: ${(error as Error).message}`);
    }
  };
  const key = await read('key', tls.key);
  await read('cert', tls.cert);
  if (tls.ca) await read('ca', tls.ca);
  try {
    createPrivateKey({ key, ...(tls.passphrase ? { passphrase: tls.passphrase } : {}) });
  } catch (error) {
    throw new ConfigError(`servers.*.options.tls.key: ${tls.key} is not a usable private key (wrong passphrase?): ${(error as Error).message}`);
  }
  return { certFile: tls.cert, keyFile: tls.key, passphrase: tls.passphrase, caFile: tls.ca };
}
