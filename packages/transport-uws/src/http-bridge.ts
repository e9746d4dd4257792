import { STATUS_CODES } from 'node:http';
import type { HttpRequest, HttpResponse } from 'uWebSockets.js';

/** A fetch-style handler, as hono's `app.fetch` is. */
export type FetchHandler = (request: Request) => Response | Promise<Response>;

/** A request read in full, handed over as plain values. */
export interface PlainHttpRequest {
  /** Upper case. */
  method: string;
  /** The raw path, without the query. */
  path: string;
  /** The raw query string, without `?`. */
  query: string;
  /** Lower-case names; repeated headers joined with `, `. */
  headers: Readonly<Record<string, string>>;
  body: Uint8Array;
}

export interface PlainHttpResponse {
  status: number;
  headers: Readonly<Record<string, string>>;
  body: string;
}

/**
 * Answers the requests it knows without the Fetch API (whose Request and
 * Response cost more per call than a Pusher trigger itself); resolves to
 * undefined to pass a request on to the fetch handler.
 */
export type PlainHttpHandler = (request: PlainHttpRequest) => Promise<PlainHttpResponse | undefined> | PlainHttpResponse | undefined;

export interface HttpBridgeOptions {
  /** Bodies above this many bytes are refused with 413 before they are buffered. */
  maxBodyBytes: number;
  /** `http` or `https`, for the Request URL. */
  scheme: 'http' | 'https';
  /** Called once per request that reached the handler and was answered, for in-flight tracking. */
  onSettled?: () => void;
  /** Called when a request starts, for in-flight tracking. */
  onStart?: () => void;
  /** Tried first; what it leaves (undefined) goes to the fetch handler. */
  plain?: PlainHttpHandler | undefined;
}

const methodsWithoutBody = new Set(['GET', 'HEAD', 'OPTIONS', 'DELETE']);
/** Calls `writeHeader` for each header of an answer, whatever holds them. */
type EachHeader = (writeHeader: (name: string, value: string) => void) => void;
const noBody = new Uint8Array(0);

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
  const { plain } = options;
  return (res: HttpResponse, req: HttpRequest): void => {
    const method = req.getCaseSensitiveMethod().toUpperCase();
    const path = req.getUrl();
    const query = req.getQuery() ?? '';
    // No prototype, so no header name can reach Object.prototype's members.
    const headers: Record<string, string> = Object.create(null) as Record<string, string>;
    req.forEach((name, value) => {
      const previous = headers[name];
      headers[name] = previous === undefined ? value : `${previous}, ${value}`;
    });

    let aborted = false;
    res.onAborted(() => {
      if (!aborted) options.onSettled?.();
      aborted = true;
    });
    options.onStart?.();

    const declaredLength = Number(headers['content-length'] ?? '0');
    if (declaredLength > options.maxBodyBytes) {
      aborted = true;
      options.onSettled?.();
      return jsonError(res, 413, `Request body is larger than ${options.maxBodyBytes} bytes.`);
    }
    const hasBody = !methodsWithoutBody.has(method) && (declaredLength > 0 || headers['transfer-encoding'] !== undefined);

    /** Writes the answer once, corked, unless the client is gone; the request is settled either way. */
    const write = (status: number, eachHeader: EachHeader, payload: Uint8Array | string) => {
      if (aborted) return;
      aborted = true; // written: later aborts are not ours to count
      try {
        res.cork(() => {
          res.writeStatus(`${status} ${STATUS_CODES[status] ?? ''}`);
          eachHeader((name, value) => {
            if (name !== 'content-length') res.writeHeader(name, value);
          });
          // HEAD: the length a GET would have, and no body.
          if (method === 'HEAD') res.endWithoutBody(typeof payload === 'string' ? Buffer.byteLength(payload) : payload.byteLength);
          else res.end(payload);
        });
      } finally {
        options.onSettled?.();
      }
    };

    /** Whatever went wrong before an answer was written, the client gets a 500 and the request is settled. */
    const writeInternalError = () =>
      write(500, (writeHeader) => writeHeader('content-type', 'application/json'), '{"error":"Internal server error.","code":500}');

    const viaFetch = async (body: Buffer | undefined): Promise<void> => {
      try {
        const url = `${options.scheme}://${headers['host'] ?? 'localhost'}${path}${query ? `?${query}` : ''}`;
        const response = await handler(new Request(url, { method, headers, ...(body ? { body } : {}) }));
        const payload = new Uint8Array(await response.arrayBuffer());
        write(response.status, (writeHeader) => response.headers.forEach((value, name) => writeHeader(name, value)), payload);
      } catch {
        writeInternalError();
      }
    };

    const respond = async (body: Buffer | undefined): Promise<void> => {
      if (plain) {
        let answer: PlainHttpResponse | undefined;
        try {
          answer = await plain({ method, path, query, headers, body: body ?? noBody });
        } catch {
          return writeInternalError();
        }
        if (answer) {
          const answerHeaders = answer.headers;
          return write(answer.status, (writeHeader) => {
            for (const name in answerHeaders) writeHeader(name, answerHeaders[name] as string);
          }, answer.body);
        }
      }
      return viaFetch(body);
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
