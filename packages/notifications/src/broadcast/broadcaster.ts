/** Publishes events to realtime channels (the Pusher HTTP API, or an in-memory recorder). */
export interface Broadcaster {
  /**
   * Triggers `event` with `data` on every channel. `socketId` excludes the connection that
   * caused the change, so the tab that acted does not receive its own echo.
   */
  trigger(channels: readonly string[], event: string, data: unknown, options?: { socketId?: string }): Promise<void>;
  /**
   * Signs a private-channel subscription (`{key}:{hmac(socket_id:channel)}`). Broadcasters
   * without credentials omit it, and `POST /broadcasting/auth` then answers 503.
   */
  authorizeChannel?(socketId: string, channelName: string): { auth: string };
}
