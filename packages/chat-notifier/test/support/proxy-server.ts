import { createServer, request as httpRequest, type IncomingMessage, type ServerResponse } from 'node:http';
import { connect, type AddressInfo, type Socket } from 'node:net';

/** How the proxy answers: tunnel/forward, demand credentials, or fail the CONNECT itself. */
export type ProxyMode = 'ok' | { status: number; body?: string };

export interface ProxyOptions {
  /** Required `user:password` (Basic); a CONNECT without it gets 407. */
  readonly auth?: string;
  /** Answer every CONNECT / forward with this instead of tunnelling. Default 'ok'. */
  readonly mode?: ProxyMode;
}

/**
 * A real HTTP proxy on 127.0.0.1, as undici's ProxyAgent speaks to it: CONNECT
 * tunnels (the default for every target) and absolute-form forwarding of plain
 * HTTP (`proxyTunnel: false`). It only reaches loopback targets.
 */
export interface ProxyServer {
  /** `http://127.0.0.1:<port>`, without credentials. */
  readonly url: string;
  readonly port: number;
  /** `host:port` of every CONNECT, and the absolute URL of every forwarded request. */
  readonly targets: string[];
  /** The Proxy-Authorization header of each request (undefined when absent). */
  readonly authorizations: Array<string | undefined>;
  /** `http://user:password@127.0.0.1:<port>` for the configured credentials. */
  urlWithAuth(userPassword: string): string;
  close(): Promise<void>;
}

export async function startProxyServer(options: ProxyOptions = {}): Promise<ProxyServer> {
  const targets: string[] = [];
  const authorizations: Array<string | undefined> = [];
  const sockets = new Set<Socket>();
  const expected = options.auth === undefined ? undefined : `Basic ${Buffer.from(options.auth).toString('base64')}`;

  /** Null when the request may pass, else the status line + headers to refuse it with. */
  const refusal = (req: IncomingMessage): { status: number; headers: Record<string, string>; body: string } | null => {
    authorizations.push(req.headers['proxy-authorization']);
    if (expected !== undefined && req.headers['proxy-authorization'] !== expected) {
      return { status: 407, headers: { 'proxy-authenticate': 'Basic realm="test-proxy"' }, body: '' };
    }
    const mode = options.mode ?? 'ok';
    if (mode !== 'ok') return { status: mode.status, headers: {}, body: mode.body ?? '' };
    return null;
  };

  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    // Absolute-form forwarding: "POST http://127.0.0.1:1234/hooks/... HTTP/1.1".
    const target = req.url ?? '';
    targets.push(target);
    const refused = refusal(req);
    if (refused) {
      res.writeHead(refused.status, refused.headers).end(refused.body);
      return;
    }
    let url: URL;
    try {
      url = new URL(target);
    } catch {
      res.writeHead(400).end();
      return;
    }
    if (url.hostname !== '127.0.0.1' && url.hostname !== 'localhost') {
      res.writeHead(403).end();
      return;
    }
    const headers = { ...req.headers };
    delete headers['proxy-authorization'];
    delete headers['proxy-connection'];
    const upstream = httpRequest(
      { host: '127.0.0.1', port: Number(url.port), method: req.method, path: `${url.pathname}${url.search}`, headers },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    upstream.on('error', () => res.writeHead(502).end());
    req.pipe(upstream);
  });

  server.on('connect', (req: IncomingMessage, client: Socket, head: Buffer) => {
    const target = req.url ?? '';
    targets.push(target);
    sockets.add(client);
    client.on('error', () => {});
    client.on('close', () => sockets.delete(client));
    const refused = refusal(req);
    if (refused) {
      const headerLines = Object.entries(refused.headers).map(([k, v]) => `${k}: ${v}\r\n`).join('');
      client.end(`HTTP/1.1 ${refused.status} Refused\r\n${headerLines}content-length: ${Buffer.byteLength(refused.body)}\r\n\r\n${refused.body}`);
      return;
    }
    const [host, port] = target.split(':');
    if (host !== '127.0.0.1' && host !== 'localhost') {
      client.end('HTTP/1.1 403 Forbidden\r\ncontent-length: 0\r\n\r\n');
      return;
    }
    const upstream = connect(Number(port), '127.0.0.1', () => {
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      if (head.length) upstream.write(head);
      upstream.pipe(client);
      client.pipe(upstream);
    });
    sockets.add(upstream);
    upstream.on('close', () => sockets.delete(upstream));
    upstream.on('error', () => client.end('HTTP/1.1 502 Bad Gateway\r\ncontent-length: 0\r\n\r\n'));
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    targets,
    authorizations,
    urlWithAuth: (userPassword) => `http://${userPassword}@127.0.0.1:${port}`,
    close: async () => {
      for (const s of sockets) s.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
