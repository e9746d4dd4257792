import type { Socket } from '@org/protocol';
import type { WebSocket } from 'uWebSockets.js';
import type { SocketUserData } from './user-data.js';

/**
 * The engine's Socket over a uWS WebSocket. uWS throws on any use of a closed
 * socket, so every call checks `closed`, which the close handler sets.
 */
export class UwsSocket implements Socket {
  closed = false;

  constructor(private readonly ws: WebSocket<SocketUserData>) {}

  send(frame: string): boolean {
    if (this.closed) return false;
    // 2 = dropped at the backpressure limit; uWS then closes the socket (closeOnBackpressureLimit).
    return this.ws.send(frame, false) !== 2;
  }

  close(code: number, reason: string): void {
    if (this.closed) return;
    this.closed = true;
    this.ws.end(code, reason);
  }

  subscribe(topic: string): void {
    if (!this.closed) this.ws.subscribe(topic);
  }

  unsubscribe(topic: string): void {
    if (!this.closed) this.ws.unsubscribe(topic);
  }

  publishExceptSelf(topic: string, frame: string): void {
    if (!this.closed) this.ws.publish(topic, frame, false);
  }

  cork(fn: () => void): void {
    if (this.closed) return;
    this.ws.cork(fn);
  }
}
