/**
 * `@org/thread-scaler/testing`: what this package's tests use to drive one side of a port by hand,
 * for tests of a hub or a port scaler with hostile or scripted input. It imports no test runner.
 */
export { handPort, type HandPort } from './hand-port.js';
export { snapshot } from './state-snapshot.js';
