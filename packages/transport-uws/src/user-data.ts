import type { App, Connection, ConnectionRequest } from '@org/protocol';
import type { UwsSocket } from './uws-socket.js';

/** What the upgrade hands to `open`, and what the socket carries afterwards. */
export interface SocketUserData {
  app: App | undefined;
  request: ConnectionRequest;
  socket: UwsSocket | undefined;
  connection: Connection | undefined;
}
