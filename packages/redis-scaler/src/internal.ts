/**
 * Not exported from the package: lets this package's tests stop a node the
 * way SIGKILL would (connections dropped, nothing cleaned up).
 */
export const crashForTests = Symbol('crashForTests');
