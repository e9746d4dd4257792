import type { App, Connection, ConnectionRequest } from '@org/protocol';
import type { UwsSocket } from './uws-socket.js';

/** What the upgrade hands to `open`, and what the socket carries afterwards. */
export interface SocketUserData {
  app: App | undefined;
  /** The upgrade's details, until `open` has handed them to the engine. */
  request: ConnectionRequest | undefined;
  socket: UwsSocket | undefined;
  connection: Connection | undefined;
}
