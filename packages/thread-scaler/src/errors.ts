export type ScalerHubErrorCode =
  /** The hub refused a request it could not read (a bug on the worker's side). */
  | 'INVALID_REQUEST'
  /** The hub answered something the scaler could not read. */
  | 'INVALID_REPLY'
  /** The hub failed answering a readable request (a bug in the hub). */
  | 'HUB_FAILED'
  /** The port closed (the hub stopped, or this scaler was closed) before an answer came. */
  | 'HUB_GONE';

/** A failed call to the hub, with a stable code. */
export class ScalerHubError extends Error {
  override readonly name = 'ScalerHubError';
  constructor(
    readonly code: ScalerHubErrorCode,
    message: string,
  ) {
    super(message);
  }
}
