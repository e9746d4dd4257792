// For resolvers that do not read package.json "exports" (TypeScript's node10 resolution, dts bundlers
// such as the bell's tsup build, which inlines these declarations): the same as "@org/notifications/contract".
export * from './dist/contract';
