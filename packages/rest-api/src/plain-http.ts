/** A request a server has already read in full: no streams, no URL object. */
export interface PlainRequest {
  /** Upper case. */
  method: string;
  /** The raw path, with the deployment prefix, without the query. */
  path: string;
  /** The raw query string, without `?`. */
  query: string;
  /** Lower-case names. Only `authorization`, `origin` and `x-idempotency-key` are read. */
  headers: Readonly<Record<string, string | undefined>>;
  /** The whole body (empty for none). */
  body: Uint8Array;
}

/** An answer as plain values: write the status, each header, then the body. */
export interface PlainResponse {
  status: number;
  /** Lower-case names. */
  headers: Readonly<Record<string, string>>;
  /** `''` for a 204 and for every answer to HEAD (which carries the GET answer's status and headers). */
  body: string;
}
