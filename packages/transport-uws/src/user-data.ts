import type { App, Connection, ConnectionRequest } from '@org/protocol';

/** What the upgrade learned, for `open` to hand to the engine. */
export interface UpgradeDetails {
  app: App | undefined;
  request: ConnectionRequest;
}

/**
 * What each socket carries: the upgrade's details until `open`, then the
 * engine's connection. uWS copies these fields into an object of its own
 * per socket; two fields keep that object at its smallest.
 */
export interface SocketUserData {
  upgrade: UpgradeDetails | undefined;
  connection: Connection | undefined;
}
