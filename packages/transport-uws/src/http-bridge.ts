import { STATUS_CODES } from 'node:http';
import type { HttpRequest, HttpResponse } from 'uWebSockets.js';
import { DISCARD_ALLOWANCE, HEADER_LINE_OVERHEAD, requestLineSize, type TransportRefusalHandler } from './limits.js';
import { DEFAULT_MAX_REQUEST_HEAD_SIZE } from './options.js';
import { routedUrl, toFetchHeaders } from './routed-request.js';
import { createRateLimitedReporter, reportSafely, type TransportErrorHandler } from './transport-errors.js';

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
  /** Bodies above this many bytes are refused with 413, without reading more than that. */
  maxBodyBytes: number;
  /** Heads (request line and headers) above this many characters are refused with 431. Default 16 KiB. */
  maxHeadBytes?: number;
  /** `http` or `https`, for the Request URL. */
  scheme: 'http' | 'https';
  /** Called once per request that reached the handler and was answered, for in-flight tracking. */
  onSettled?: () => void;
  /** Called when a request starts, for in-flight tracking. */
  onStart?: () => void;
  /** Tried first; what it leaves (undefined) goes to the fetch handler. */
  plain?: PlainHttpHandler | undefined;
  /** Called once per request refused at a size limit (`body_too_large`, `head_too_large`). */
  onRefused?: TransportRefusalHandler | undefined;
  /** Exceptions from the handlers (answered 500). Default: rate-limited console.error. */
  onError?: TransportErrorHandler | undefined;
}

const methodsWithoutBody = new Set(['GET', 'HEAD', 'OPTIONS', 'DELETE']);
/** Calls `writeHeader` for each header of an answer, whatever holds them. */
type EachHeader = (writeHeader: (name: string, value: string) => void) => void;
const noBody = new Uint8Array(0);
/** The rest-api's error content type, so every JSON error of the port looks the same. */
const jsonErrorHeaders: EachHeader = (writeHeader) => writeHeader('content-type', 'application/json; charset=UTF-8');
const internalErrorBody = JSON.stringify({ error: 'Internal server error.', code: 500 });

/**
 * One request's answer side. uWS throws on any use of a response after it was
 * answered or aborted, so every write goes through here, once; the request is
 * settled (for in-flight tracking) exactly once, whichever way it ends.
 */
class Exchange {
  /** Answered or aborted: `res` must not be touched again. */
  done = false;
  /** Upper case; HEAD is answered without a body. */
  method = '';

  constructor(
    private readonly res: HttpResponse,
    private readonly onSettled: (() => void) | undefined,
  ) {}

  aborted(): void {
    if (this.done) return;
    this.done = true;
    this.settle();
  }

  /**
   * Writes the answer, corked. `closeConnection` makes uWS close the socket
   * after it instead of reading (and discarding) the rest of a refused body.
   */
  write(status: number, eachHeader: EachHeader, payload: Uint8Array | string, closeConnection = false): void {
    if (this.done) return;
    this.done = true;
    const { res, method } = this;
    try {
      res.cork(() => {
        res.writeStatus(`${status} ${STATUS_CODES[status] ?? ''}`);
        eachHeader((name, value) => {
          if (name !== 'content-length') res.writeHeader(name, value);
        });
        // HEAD: the length a GET would have, and no body.
        if (method === 'HEAD') res.endWithoutBody(typeof payload === 'string' ? Buffer.byteLength(payload) : payload.byteLength, closeConnection);
        else res.end(payload, closeConnection);
      });
    } finally {
      this.settle();
    }
  }

  /** A JSON error in the rest-api's shape, `{ error, code }`. */
  writeError(status: number, message: string, closeConnection = false): void {
    this.write(status, jsonErrorHeaders, JSON.stringify({ error: message, code: status }), closeConnection);
  }

  writeInternalError(): void {
    this.write(500, jsonErrorHeaders, internalErrorBody);
  }

  private settle(): void {
    try {
      this.onSettled?.();
    } catch {
      // In-flight tracking is the caller's; its failure must not break the answer.
    }
  }
}

/**
 * Serves a uWS route with a fetch handler: copies the request out of uWS
 * (valid only synchronously), refuses heads and bodies over the limits, reads
 * the body, and writes the Response back corked. Aborted requests are never
 * written to. The route is the path uWS parsed, never the `Host` header.
 * No exception from the handlers reaches uWS (which would end the process):
 * the client gets a 500 and `onError` hears of it.
 */
export function createHttpBridge(handler: FetchHandler, options: HttpBridgeOptions) {
  const { plain, maxBodyBytes } = options;
  const maxHeadBytes = options.maxHeadBytes ?? DEFAULT_MAX_REQUEST_HEAD_SIZE;
  const onError = options.onError ?? createRateLimitedReporter();
  const origin = `${options.scheme}://localhost`;
  const report = (error: unknown) => reportSafely(onError, error, 'http');
  const refused = (reason: 'body_too_large' | 'head_too_large') => {
    try {
      options.onRefused?.(reason);
    } catch (error) {
      report(error);
    }
  };
  /** Whatever went wrong, the client gets a 500 if it has no answer yet, and `onError` is told. */
  const fail = (exchange: Exchange, error: unknown) => {
    report(error);
    try {
      exchange.writeInternalError();
    } catch (writeError) {
      report(writeError);
    }
  };

  const serve = (res: HttpResponse, req: HttpRequest, exchange: Exchange, method: string): void => {
    const path = req.getUrl();
    const query = req.getQuery() ?? '';
    // No prototype, so no header name can reach Object.prototype's members.
    const headers: Record<string, string> = Object.create(null) as Record<string, string>;
    let headSize = requestLineSize(method, path, query);
    req.forEach((name, value) => {
      headSize += name.length + value.length + HEADER_LINE_OVERHEAD;
      const previous = headers[name];
      headers[name] = previous === undefined ? value : `${previous}, ${value}`;
    });

    if (headSize > maxHeadBytes) {
      refused('head_too_large');
      return exchange.writeError(431, `the request head is larger than ${maxHeadBytes} bytes`, true);
    }
    const declaredLength = Number(headers['content-length'] ?? '0');
    const tooLarge = `the request body is larger than ${maxBodyBytes} bytes`;
    if (declaredLength > maxBodyBytes + DISCARD_ALLOWANCE) {
      refused('body_too_large');
      return exchange.writeError(413, tooLarge, true);
    }
    const hasBody = declaredLength > maxBodyBytes || (!methodsWithoutBody.has(method) && (declaredLength > 0 || headers['transfer-encoding'] !== undefined));

    const viaFetch = async (body: Buffer | undefined): Promise<void> => {
      try {
        const url = routedUrl(origin, path, query);
        const response = await handler(new Request(url, { method, headers: toFetchHeaders(headers), ...(body ? { body } : {}) }));
        const payload = new Uint8Array(await response.arrayBuffer());
        exchange.write(response.status, (writeHeader) => response.headers.forEach((value, name) => writeHeader(name, value)), payload);
      } catch (error) {
        fail(exchange, error);
      }
    };

    const respond = async (body: Buffer | undefined): Promise<void> => {
      if (plain) {
        let answer: PlainHttpResponse | undefined;
        try {
          answer = await plain({ method, path, query, headers, body: body ?? noBody });
        } catch (error) {
          return fail(exchange, error);
        }
        if (answer) {
          const answerHeaders = answer.headers;
          return exchange.write(answer.status, (writeHeader) => {
            for (const name in answerHeaders) writeHeader(name, answerHeaders[name] as string);
          }, answer.body);
        }
      }
      return viaFetch(body);
    };
    const respondSafely = (body: Buffer | undefined) => void respond(body).catch((error: unknown) => fail(exchange, error));

    if (!hasBody) return respondSafely(undefined);

    let chunks: Buffer[] = [];
    let received = 0;
    let refusing = false;
    res.onData((chunk, isLast) => {
      try {
        if (exchange.done) return;
        received += chunk.byteLength;
        if (!refusing && received > maxBodyBytes) {
          refusing = true;
          chunks = [];
          refused('body_too_large');
        }
        if (refusing) {
          // Discarded, never held. Within the allowance the 413 waits for the body's end, so a client still
          // uploading reads it instead of a reset; past it, closing stops uWS reading at all.
          if (received > maxBodyBytes + DISCARD_ALLOWANCE) return exchange.writeError(413, tooLarge, true);
          if (isLast) exchange.writeError(413, tooLarge);
          return;
        }
        // The ArrayBuffer is neutered after this callback: copy it.
        chunks.push(Buffer.from(new Uint8Array(chunk)));
        if (isLast) respondSafely(chunks.length === 1 ? chunks[0] : Buffer.concat(chunks));
      } catch (error) {
        fail(exchange, error);
      }
    });
  };

  return (res: HttpResponse, req: HttpRequest): void => {
    const exchange = new Exchange(res, options.onSettled);
    try {
      res.onAborted(() => exchange.aborted());
      options.onStart?.();
      exchange.method = req.getCaseSensitiveMethod().toUpperCase();
      serve(res, req, exchange, exchange.method);
    } catch (error) {
      fail(exchange, error);
    }
  };
}
