export interface ScalerHubStats {
  /** Nodes attached now. */
  nodes: number;
  /** Cluster messages handed to another node (one per receiving node). */
  forwarded: number;
  /** Cluster messages not sent to a routed node that had nothing in the channel. */
  skipped: number;
  /** Requests refused as unreadable. */
  invalid: number;
  /** Nodes whose port closed without `close()`, their state undone. */
  lost: number;
}
