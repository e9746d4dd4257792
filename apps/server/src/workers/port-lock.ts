import { createServer, type Server } from 'node:net';

/**
 * Every worker listens with SO_REUSEPORT, which would also let a second `--workers` process share
 * the port silently. The main thread therefore holds, for as long as it serves a port, an
 * abstract-namespace unix socket named after host:port (Linux; the kernel releases it when the
 * process dies, however it dies): a second process fails to take it and is refused like a lone
 * daemon on a busy port. Counted per process, so a restart's next pool takes it before the
 * previous pool lets it go (the port stays held across SIGHUP; a changed port swaps the lock).
 */
const held = new Map<string, { server: Server; users: number }>();

const lockName = (host: string, port: number) => `\0realtime-server:${host}:${port}`;

/** Holds `host:port` for this process; resolves to its release. Rejects "could not listen on host:port" when another process holds it. */
export async function holdPort(host: string, port: number): Promise<() => void> {
  const key = `${host}:${port}`;
  let entry = held.get(key);
  if (!entry) {
    const server = createServer();
    await new Promise<void>((resolve, reject) => {
      server.once('error', (error: NodeJS.ErrnoException) =>
        reject(error.code === 'EADDRINUSE' ? new Error(`could not listen on ${host}:${port} (another server process holds it)`) : error),
      );
      server.listen({ path: lockName(host, port) }, () => resolve());
    });
    // Never keeps the process alive on its own: the daemon's own work does.
    server.unref();
    entry = held.get(key) ?? { server, users: 0 };
    if (entry.server !== server) server.close();
    held.set(key, entry);
  }
  entry.users++;
  let released = false;
  return () => {
    if (released) return;
    released = true;
    if (--entry.users > 0) return;
    held.delete(key);
    entry.server.close();
  };
}
