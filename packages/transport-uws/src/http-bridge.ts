import { STATUS_CODES } from 'node:http';
import type { HttpRequest, HttpResponse } from 'uWebSockets.js';
import { DISCARD_ALLOWANCE, HEADER_LINE_OVERHEAD, requestLineSize, type TransportRefusalHandler } from './limits.js';
import { DEFAULT_MAX_REQUEST_HEAD_SIZE } from './options.js';
import { createRateLimitedReporter, reportSafely, type TransportErrorHandler } from './transport-errors.js';

/** A fetch-style handler, as hono's `app.fetch` is: `createUwsServer`'s `fetch` option. */
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
  /** The whole body, at most `maxRequestSize` bytes; empty for none (and for GET, HEAD, OPTIONS and DELETE). */
  body: Uint8Array;
}

export interface PlainHttpResponse {
  status: number;
  headers: Readonly<Record<string, string>>;
  body: string | Uint8Array;
}

/**
 * Answers a request from plain values, without the Fetch API (whose Request
 * and Response cost more per call than a Pusher trigger itself). Resolving to
 * undefined passes the request on (to the `fetch` handler of
 * `createUwsServer`, or a 404 without one).
 */
export type PlainHttpHandler = (request: PlainHttpRequest) => Promise<PlainHttpResponse | undefined> | PlainHttpResponse | undefined;

export interface HttpBridgeOptions {
  /** Bodies above this many bytes are refused with 413, without reading more than that. */
  maxBodyBytes: number;
  /** Heads (request line and headers) above this many characters are refused with 431. Default 16 KiB. */
  maxHeadBytes?: number;
  /** Called once per request that reached the handler and was answered, for in-flight tracking. */
  onSettled?: () => void;
  /** Called when a request starts, for in-flight tracking. */
  onStart?: () => void;
  /** Called once per request refused at a size limit (`body_too_large`, `head_too_large`). */
  onRefused?: TransportRefusalHandler | undefined;
  /** Exceptions from the handler (answered 500). Default: rate-limited console.error. */
  onError?: TransportErrorHandler | undefined;
}

const methodsWithoutBody = new Set(['GET', 'HEAD', 'OPTIONS', 'DELETE']);
const noBody = Buffer.alloc(0);
/** The JSON error shape of `@org/rest-api`, so every error of the port looks the same. */
const jsonErrorHeaders: Readonly<Record<string, string>> = { 'content-type': 'application/json; charset=UTF-8' };
const internalErrorBody = JSON.stringify({ error: 'Internal server error.', code: 500 });
const notFoundBody = JSON.stringify({ error: 'Not found', code: 404 });

function isThenable<T>(value: T | PromiseLike<T>): value is PromiseLike<T> {
  return typeof (value as { then?: unknown } | undefined)?.then === 'function';
}

/** `200 OK`, built once per status. */
const statusLines = new Map<number, string>();
function statusLine(status: number): string {
  let line = statusLines.get(status);
  if (line === undefined) {
    line = `${status} ${STATUS_CODES[status] ?? ''}`;
    if (statusLines.size < 128) statusLines.set(status, line);
  }
  return line;
}

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
   * Writes the whole answer in one corked batch. `closeConnection` makes uWS
   * close the socket after it instead of reading (and discarding) the rest of
   * a refused body.
   */
  write(status: number, headers: Readonly<Record<string, string>>, payload: string | Uint8Array, closeConnection = false): void {
    if (this.done) return;
    this.done = true;
    const { res, method } = this;
    try {
      res.cork(() => {
        res.writeStatus(statusLine(status));
        for (const name in headers) {
          if (name !== 'content-length') res.writeHeader(name, headers[name] as string);
        }
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

  private settle(): void {
    try {
      this.onSettled?.();
    } catch {
      // In-flight tracking is the caller's; its failure must not break the answer.
    }
  }
}

/**
 * Serves a uWS route with a plain handler: copies the request out of uWS
 * (valid only synchronously), refuses heads and bodies over the limits, reads
 * the body once into one Buffer, and writes the answer back corked, once.
 * Aborted requests are never written to. The route is the path uWS parsed,
 * never the `Host` header. No exception from the handler reaches uWS (which
 * would end the process): the client gets a 500 and `onError` hears of it.
 */
export function createHttpBridge(handler: PlainHttpHandler, options: HttpBridgeOptions) {
  const { maxBodyBytes, onStart, onSettled } = options;
  const maxHeadBytes = options.maxHeadBytes ?? DEFAULT_MAX_REQUEST_HEAD_SIZE;
  const onError = options.onError ?? createRateLimitedReporter();
  const tooLarge = `the request body is larger than ${maxBodyBytes} bytes`;
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
      exchange.write(500, jsonErrorHeaders, internalErrorBody);
    } catch (writeError) {
      report(writeError);
    }
  };
  const answer = (exchange: Exchange, response: PlainHttpResponse | undefined) => {
    try {
      if (response) exchange.write(response.status, response.headers, response.body);
      else exchange.write(404, jsonErrorHeaders, notFoundBody);
    } catch (error) {
      fail(exchange, error);
    }
  };
  /** Calls the handler; a synchronous answer is written at once, without a promise. */
  const respond = (exchange: Exchange, request: PlainHttpRequest) => {
    let response: ReturnType<PlainHttpHandler>;
    try {
      response = handler(request);
    } catch (error) {
      return fail(exchange, error);
    }
    if (isThenable(response)) {
      response.then(
        (resolved) => answer(exchange, resolved),
        (error: unknown) => fail(exchange, error),
      );
    } else {
      answer(exchange, response);
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
    if (declaredLength > maxBodyBytes + DISCARD_ALLOWANCE) {
      refused('body_too_large');
      return exchange.writeError(413, tooLarge, true);
    }
    const hasBody = declaredLength > maxBodyBytes || (!methodsWithoutBody.has(method) && (declaredLength > 0 || headers['transfer-encoding'] !== undefined));
    if (!hasBody) return respond(exchange, { method, path, query, headers, body: noBody });

    // With a declared length within the limit the body goes straight into one Buffer of that size;
    // otherwise (chunked) into chunks joined at the end. Either way it is copied once from uWS.
    const sized = declaredLength > 0 && declaredLength <= maxBodyBytes ? Buffer.allocUnsafe(declaredLength) : undefined;
    let chunks: Buffer[] | undefined;
    let received = 0;
    let refusing = false;
    res.onData((chunk, isLast) => {
      try {
        if (exchange.done) return;
        const offset = received;
        received += chunk.byteLength;
        if (!refusing && received > maxBodyBytes) {
          refusing = true;
          chunks = undefined;
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
        if (sized && received <= sized.byteLength) sized.set(new Uint8Array(chunk), offset);
        else (chunks ??= sized ? [sized.subarray(0, offset)] : []).push(Buffer.from(new Uint8Array(chunk)));
        if (!isLast) return;
        let body: Buffer;
        if (chunks) body = chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks, received);
        else body = sized && received === sized.byteLength ? sized : (sized ?? noBody).subarray(0, received);
        respond(exchange, { method, path, query, headers, body });
      } catch (error) {
        fail(exchange, error);
      }
    });
  };

  return (res: HttpResponse, req: HttpRequest): void => {
    const exchange = new Exchange(res, onSettled);
    try {
      res.onAborted(() => exchange.aborted());
      onStart?.();
      exchange.method = req.getCaseSensitiveMethod().toUpperCase();
      serve(res, req, exchange, exchange.method);
    } catch (error) {
      fail(exchange, error);
    }
  };
}
