import { describe, expect, it } from 'vitest';
import { createAssets } from './assets.js';

describe('createAssets', () => {
  const assets = createAssets();

  it('maps the bell, lit and pusher-js to files it serves from node_modules', async () => {
    const map = JSON.parse(assets.importMap) as { imports: Record<string, string> };
    for (const url of Object.values(map.imports).filter((value) => !value.endsWith('/'))) {
      const asset = await assets.read(url.slice('/assets/'.length));
      expect(asset, url).not.toBeNull();
      expect(asset?.contentType).toContain('javascript');
    }
  });

  it('serves pusher-js (UMD only) as an ES module with a default export', async () => {
    const asset = await assets.read('pusher-js.mjs');
    expect(asset?.body).toMatch(/export default value/);
    expect(asset?.body).not.toContain('sourceMappingURL');
  });

  it.each(['lit/../../../../etc/passwd', 'lit/package.json', 'notification-bell/../package.json', 'unknown/index.js', 'demo/../src/assets.ts'])(
    'refuses %s (outside a package, or not a served file type)',
    async (path) => {
      await expect(assets.read(path)).resolves.toBeNull();
    },
  );
});
