import { createApp, type App, type AppOptions } from './app.js';

/**
 * Where the server finds apps. Lookups run once per connection and per HTTP
 * request, so an implementation backed by a database should cache.
 */
export interface AppProvider {
  findByKey(key: string): App | undefined | Promise<App | undefined>;
  findById(id: string): App | undefined | Promise<App | undefined>;
  all(): readonly App[] | Promise<readonly App[]>;
}

/** Apps from a fixed list (the config file). */
export function createStaticAppProvider(apps: readonly (App | AppOptions)[]): AppProvider {
  const list = apps.map((app) => createApp(app));
  const byKey = new Map(list.map((app) => [app.key, app]));
  const byId = new Map(list.map((app) => [app.id, app]));
  if (byKey.size !== list.length) throw new Error('app keys must be unique');
  if (byId.size !== list.length) throw new Error('app ids must be unique');
  return {
    findByKey: (key) => byKey.get(key),
    findById: (id) => byId.get(id),
    all: () => list,
  };
}
