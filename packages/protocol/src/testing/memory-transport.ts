import type { App } from '../app.js';
import type { Connection } from '../connection.js';
import type { RealtimeServer } from '../realtime-server.js';
import type { ConnectionRequest, Publisher, Socket } from '../transport.js';

/** A socket whose frames land in an array; for tests of the engine and its users. */
export class MemorySocket implements Socket {
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

  send(frame: string): boolean {
    if (this.closed) return false;
    this.frames.push(frame);
    return true;
  }
  close(code: number, reason: string): void {
    if (this.closed) return;
    this.closed = { code, reason };
    this.#transport.detach(this);
  }
  subscribe(topic: string): void {
    this.#transport.topicMembers(topic).add(this);
  }
  unsubscribe(topic: string): void {
    this.#transport.topicMembers(topic).delete(this);
  }
  publishExceptSelf(topic: string, frame: string): void {
    for (const socket of this.#transport.topicMembers(topic)) if (socket !== this) socket.send(frame);
  }
  cork(fn: () => void): void {
    fn();
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
 * on it: closing a socket drops its topics.
 */
export class MemoryTransport implements Publisher {
  readonly #topics = new Map<string, Set<MemorySocket>>();
  readonly server: RealtimeServer;

  constructor(server: RealtimeServer) {
    this.server = server;
    server.attach(this);
  }

  /** Opens a socket for an app key, like a client connecting to `/app/{key}`. */
  async connect(request: Partial<ConnectionRequest> & { appKey: string }): Promise<MemorySocket> {
    const socket = new MemorySocket(this);
    const app: App | undefined = await this.server.findApp(request.appKey);
    socket.connection = this.server.open(socket, app, { ...request });
    await settle();
    return socket;
  }

  publish(topic: string, frame: string): void {
    for (const socket of this.#topics.get(topic) ?? []) socket.send(frame);
  }

  /** @internal */
  topicMembers(topic: string): Set<MemorySocket> {
    let members = this.#topics.get(topic);
    if (!members) this.#topics.set(topic, (members = new Set()));
    return members;
  }

  /** @internal */
  detach(socket: MemorySocket): void {
    for (const members of this.#topics.values()) members.delete(socket);
    if (socket.connection) this.server.close(socket.connection);
  }
}

/** Lets pending promise chains in the engine run to completion. */
export async function settle(rounds = 5): Promise<void> {
  for (let i = 0; i < rounds; i++) await new Promise((resolve) => setImmediate(resolve));
}
