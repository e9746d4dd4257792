import { createPrivateKey, X509Certificate } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { createSecureContext } from 'node:tls';
import type { TlsOptions } from '@org/transport-uws';
import { ConfigError } from './load-config.js';
import type { ServerConfig } from './schema.js';

type TlsConfig = NonNullable<ServerConfig['options']['tls']>;

/** Throws unless `text` holds a PEM certificate (a CA file may hold several; the first is read). */
function certificate(key: 'cert' | 'ca', file: string, text: string): void {
  try {
    new X509Certificate(text);
  } catch (error) {
    throw new ConfigError(`servers.*.options.tls.${key}: ${file} is not a PEM certificate: ${(error as Error).message}`);
  }
}

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
  const cert = await read('cert', tls.cert);
  const ca = tls.ca ? await read('ca', tls.ca) : undefined;
  const passphrase = tls.passphrase ? { passphrase: tls.passphrase } : {};
  try {
    createPrivateKey({ key, ...passphrase });
  } catch (error) {
    throw new ConfigError(`servers.*.options.tls.key: ${tls.key} is not a usable private key (wrong passphrase?): ${(error as Error).message}`);
  }
  certificate('cert', tls.cert, cert);
  if (ca !== undefined) certificate('ca', tls.ca!, ca);
  // What uWS's SSLApp would refuse, with no message of its own ("App construction failed"): a certificate for another key.
  try {
    createSecureContext({ key, cert, ...passphrase, ...(ca === undefined ? {} : { ca }) });
  } catch (error) {
    throw new ConfigError(`servers.*.options.tls.cert: ${tls.cert} does not go with the key ${tls.key}: ${(error as Error).message}`);
  }
  return { certFile: tls.cert, keyFile: tls.key, passphrase: tls.passphrase, caFile: tls.ca };
}
