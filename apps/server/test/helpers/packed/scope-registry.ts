import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { basename } from 'node:path';

/** A tarball made by `pnpm pack`, with the manifest it holds (workspace:* already replaced by versions). */
export interface PackedPackage {
  readonly file: string;
  readonly manifest: { name: string; version: string } & Record<string, unknown>;
}

export interface ScopeRegistry {
  /** `http://127.0.0.1:{port}/`, for an `.npmrc` line `@org:registry=<url>`. */
  readonly url: string;
  /** Package names npm asked for, in order (a name we do not hold is answered 404). */
  readonly requested: string[];
  close(): Promise<void>;
}

/**
 * The smallest npm registry that npm installs from: one packument per
 * package (`GET /@org%2fname`) and the tarballs. It serves only the
 * packages it is given, so npm fetches our scope from here and every other
 * package from the public registry, as a user's install would after we
 * publish — and an `@org/...` name on the public registry is never used.
 */
export async function startScopeRegistry(packages: readonly PackedPackage[]): Promise<ScopeRegistry> {
  const requested: string[] = [];
  const tarballs = new Map(packages.map((pkg) => [basename(pkg.file), readFileSync(pkg.file)]));
  let url = '';

  const packument = (pkg: PackedPackage) => {
    const bytes = tarballs.get(basename(pkg.file))!;
    const dist = {
      tarball: `${url}tarballs/${encodeURIComponent(basename(pkg.file))}`,
      shasum: createHash('sha1').update(bytes).digest('hex'),
      integrity: `sha512-${createHash('sha512').update(bytes).digest('base64')}`,
    };
    return {
      name: pkg.manifest.name,
      'dist-tags': { latest: pkg.manifest.version },
      versions: { [pkg.manifest.version]: { ...pkg.manifest, dist } },
    };
  };

  const server: Server = createServer((request, response) => {
    const path = decodeURIComponent(new URL(request.url ?? '/', 'http://registry').pathname).slice(1);
    const tarball = path.startsWith('tarballs/') ? tarballs.get(path.slice('tarballs/'.length)) : undefined;
    if (tarball) {
      response.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': tarball.length });
      response.end(tarball);
      return;
    }
    requested.push(path);
    const pkg = packages.find((candidate) => candidate.manifest.name === path);
    // no-store: the tarballs change from build to build under the same version, so npm must not reuse an old packument.
    const headers = { 'content-type': 'application/json', 'cache-control': 'no-store' };
    if (!pkg) {
      response.writeHead(404, headers);
      response.end(JSON.stringify({ error: 'not_found' }));
      return;
    }
    response.writeHead(200, headers);
    response.end(JSON.stringify(packument(pkg)));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  return {
    url,
    requested,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
