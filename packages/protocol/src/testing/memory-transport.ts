import type { Connection } from '../connection.js';
import type { RealtimeServer } from '../realtime-server.js';
import type { ConnectionRequest, Transport } from '../transport.js';

/** A socket whose frames land in an array; for tests of the engine and its users. */
export class MemorySocket {
  readonly frames: string[] = [];
  closed: { code: number; reason: string } | undefined;
  connection: Connection | undefined;
  readonly #transport: MemoryTransport;

  constructor(transport: MemoryTransport) {
    this.#transport = transport;
  }

  /** Frames parsed as JSON, in arrival order. */
  get messages(): { event: string; channel?: string; data?: unknown; user_id?: string }[] {
    return this.frames.map((frame) => JSON.parse(frame) as { event: string });
  }

  /** The frames with this event name, parsed. */
  events(name: string): { event: string; channel?: string; data?: unknown; user_id?: string }[] {
    return this.messages.filter((message) => message.event === name);
  }

  /** Closes the socket, from either side: the engine hears of it at once, as uWS tells it. */
  close(code: number, reason: string): void {
    if (this.closed) return;
    this.closed = { code, reason };
    this.#transport.detach(this);
  }

  /** Sends a frame from the client side. */
  receive(frame: string | object): void {
    if (!this.connection) throw new Error('socket was refused');
    this.#transport.server.message(this.connection, typeof frame === 'string' ? frame : JSON.stringify(frame));
  }

  /** The socket id from the handshake. */
  get socketId(): string {
    const established = this.events('pusher:connection_established')[0];
    if (!established) throw new Error('not established yet');
    return (JSON.parse(established.data as string) as { socket_id: string }).socket_id;
  }
}

/**
 * An in-process transport with topic fan-out, standing in for
 * uWebSockets.js in unit tests. It behaves like uWS where the engine relies
 * on it: closing a socket drops its topics and reports the close at once.
 */
export class MemoryTransport implements Transport<MemorySocket> {
  readonly #topics = new Map<string, Set<MemorySocket>>();
  readonly server: RealtimeServer;

  constructor(server: RealtimeServer) {
    this.server = server;
    server.attach(this);
  }

  /** Opens a socket for an app key, like a client connecting to `/app/{key}`. */
  async connect(request: Partial<ConnectionRequest> & { appKey: string }): Promise<MemorySocket> {
    const socket = new MemorySocket(this);
    const app = await this.server.apps.findByKey(request.appKey);
    socket.connection = this.server.open(socket, app, { ...request });
    await settle();
    return socket;
  }

  send(socket: MemorySocket, frame: string): void {
    if (!socket.closed) socket.frames.push(frame);
  }

  close(socket: MemorySocket, code: number, reason: string): void {
    socket.close(code, reason);
  }

  subscribe(socket: MemorySocket, topic: string): void {
    if (socket.closed) return;
    let members = this.#topics.get(topic);
    if (!members) this.#topics.set(topic, (members = new Set()));
    members.add(socket);
  }

  unsubscribe(socket: MemorySocket, topic: string): void {
    const members = this.#topics.get(topic);
    if (members?.delete(socket) && members.size === 0) this.#topics.delete(topic);
  }

  publish(topic: string, frame: string, except?: MemorySocket): void {
    for (const socket of this.#topics.get(topic) ?? []) if (socket !== except) this.send(socket, frame);
  }

  subscriberCount(topic: string): number {
    return this.#topics.get(topic)?.size ?? 0;
  }

  /** Drops a closed socket's topics, then tells the engine. */
  detach(socket: MemorySocket): void {
    for (const [topic, members] of this.#topics) if (members.delete(socket) && members.size === 0) this.#topics.delete(topic);
    if (socket.connection) this.server.close(socket.connection);
  }
}

/** Lets pending promise chains in the engine run to completion. */
export async function settle(rounds = 5): Promise<void> {
  for (let i = 0; i < rounds; i++) await new Promise((resolve) => setImmediate(resolve));
}
