// For resolvers that do not read package.json "exports" (TypeScript's node10 resolution): the same
// types as "@org/notifications/testing".
export * from './dist/testing';
