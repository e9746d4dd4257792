/**
 * Not exported from the package: lets this package's tests stop a node the
 * way SIGKILL would (connections dropped, nothing cleaned up).
 */
export const crashForTests = Symbol('crashForTests');

/** Not exported either: hands a payload to a node as if it arrived on the bus channel, synchronously. */
export const busMessageForTests = Symbol('busMessageForTests');
