import { STATUS_CODES } from 'node:http';
import type { HttpRequest, HttpResponse } from 'uWebSockets.js';

/** A fetch-style handler, as hono's `app.fetch` is. */
export type FetchHandler = (request: Request) => Response | Promise<Response>;

export interface HttpBridgeOptions {
  /** Bodies above this many bytes are refused with 413 before they are buffered. */
  maxBodyBytes: number;
  /** `http` or `https`, for the Request URL. */
  scheme: 'http' | 'https';
  /** Called once per request that reached the handler and was answered, for in-flight tracking. */
  onSettled?: () => void;
  /** Called when a request starts, for in-flight tracking. */
  onStart?: () => void;
}

const methodsWithoutBody = new Set(['GET', 'HEAD', 'OPTIONS', 'DELETE']);

function jsonError(res: HttpResponse, status: number, message: string): void {
  res.cork(() => {
    res.writeStatus(`${status} ${STATUS_CODES[status] ?? ''}`);
    res.writeHeader('content-type', 'application/json');
    res.end(JSON.stringify({ error: message, code: status }));
  });
}

/**
 * Serves a uWS route with a fetch handler: copies the request out of uWS
 * (valid only synchronously), reads the body up to a limit, and writes the
 * Response back corked. Aborted requests are never written to.
 */
export function createHttpBridge(handler: FetchHandler, options: HttpBridgeOptions) {
  return (res: HttpResponse, req: HttpRequest): void => {
    const method = req.getCaseSensitiveMethod().toUpperCase();
    const query = req.getQuery();
    const headers = new Headers();
    req.forEach((name, value) => headers.append(name, value));
    const host = headers.get('host') ?? 'localhost';
    const url = `${options.scheme}://${host}${req.getUrl()}${query ? `?${query}` : ''}`;

    let aborted = false;
    res.onAborted(() => {
      if (!aborted) options.onSettled?.();
      aborted = true;
    });
    options.onStart?.();

    const declaredLength = Number(headers.get('content-length') ?? '0');
    if (declaredLength > options.maxBodyBytes) {
      aborted = true;
      options.onSettled?.();
      return jsonError(res, 413, `Request body is larger than ${options.maxBodyBytes} bytes.`);
    }
    const hasBody = !methodsWithoutBody.has(method) && (declaredLength > 0 || headers.has('transfer-encoding'));

    const respond = async (body: Buffer | undefined) => {
      let response: Response;
      try {
        response = await handler(new Request(url, { method, headers, ...(body ? { body } : {}) }));
      } catch {
        response = Response.json({ error: 'Internal server error.', code: 500 }, { status: 500 });
      }
      const payload = method === 'HEAD' ? undefined : new Uint8Array(await response.arrayBuffer());
      if (aborted) return;
      aborted = true; // written: later aborts are not ours to count
      res.cork(() => {
        res.writeStatus(`${response.status} ${STATUS_CODES[response.status] ?? ''}`);
        response.headers.forEach((value, name) => {
          if (name !== 'content-length') res.writeHeader(name, value);
        });
        res.end(payload);
      });
      options.onSettled?.();
    };

    if (!hasBody) return void respond(undefined);

    const chunks: Buffer[] = [];
    let received = 0;
    res.onData((chunk, isLast) => {
      if (aborted) return;
      received += chunk.byteLength;
      if (received > options.maxBodyBytes) {
        aborted = true;
        options.onSettled?.();
        jsonError(res, 413, `Request body is larger than ${options.maxBodyBytes} bytes.`);
        return;
      }
      // The ArrayBuffer is neutered after this callback: copy it.
      chunks.push(Buffer.from(new Uint8Array(chunk)));
      if (isLast) void respond(Buffer.concat(chunks));
    });
  };
}
