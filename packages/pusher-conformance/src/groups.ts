/**
 * The case groups, in the order they run. `--only` and `--exclude` take these names (or case ids).
 * `idempotency` is an extension that Pusher does not document; excluding it keeps a run to Pusher's
 * documented behaviour.
 */
export const groupNames = [
  'connection',
  'public-channels',
  'private-channels',
  'presence-channels',
  'encrypted-channels',
  'cache-channels',
  'client-events',
  'users',
  'watchlist',
  'subscription-count',
  'authorized-connections',
  'http-api',
  'idempotency',
  'limits',
  'webhooks',
  'two-nodes',
] as const;

export type GroupName = (typeof groupNames)[number];

/** The features a feature app's server is configured with; a case that needs one not listed is skipped. */
export const featureNames = ['watchlist', 'subscription-count', 'authorized-connections'] as const;

export type FeatureName = (typeof featureNames)[number];
