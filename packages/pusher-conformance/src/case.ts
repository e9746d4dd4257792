import type { FeatureName, GroupName } from './groups.js';
import type { Target } from './target.js';
import type { WebhookInbox } from './webhook-receiver.js';

/** What a case needs besides the main app; without it the case is skipped, and the report says why. */
export type Need = 'node2' | 'webhooks' | 'featureApp' | 'clientEventsOffApp' | FeatureName;

/** What a case may use: the target, its own clean-up list and time, and the webhook inbox. */
export interface CaseContext {
  readonly target: Target;
  /** Aborted when the case's time is up: long waits stop at once. */
  readonly signal: AbortSignal;
  /** The webhooks received so far, when the kit listens for them. */
  readonly webhooks: WebhookInbox | undefined;
  /** Runs when the case ends, whether it passed, failed or timed out (every socket and client a case opens). */
  defer(cleanup: () => unknown): void;
  /** A name no other case or run uses (channel names, user ids): `prefix` plus the run's and the case's marks. */
  unique(prefix: string): string;
  /**
   * Polls `probe` every 10 ms until it returns something other than undefined or false; fails after
   * `timeoutMs` (default 5 s) saying what it waited for (`what` is read then, so it can show the latest state).
   */
  waitFor<T>(probe: () => T | undefined | false, what: string | (() => string), timeoutMs?: number): Promise<T>;
  /** Waits, or stops when the case is aborted. */
  sleep(ms: number): Promise<void>;
}

export interface ConformanceCase {
  /** `group.short-name`, stable: `--only` and reports use it. */
  readonly id: string;
  readonly group: GroupName;
  /** What the server must do, as a sentence. */
  readonly title: string;
  /** The Pusher documentation section the case checks, e.g. `channels/library_auth_reference/pusher-websockets-protocol#pusher-ping`. */
  readonly docs: string;
  /** Not documented by Pusher: an extension some servers offer. */
  readonly extension?: boolean;
  readonly needs?: readonly Need[];
  /** The case's own time when it must wait for the server longer than the default (ms). */
  readonly timeoutMs?: (target: Target, defaultMs: number) => number;
  run(context: CaseContext): Promise<void>;
}

/** The cases of one group, checked to belong to it. */
export function defineGroup(group: GroupName, cases: readonly Omit<ConformanceCase, 'group'>[]): ConformanceCase[] {
  return cases.map((entry) => {
    if (!entry.id.startsWith(`${group}.`)) throw new Error(`case ${entry.id} must start with "${group}."`);
    return { ...entry, group };
  });
}

export type CaseStatus = 'pass' | 'fail' | 'skip';

export interface CaseResult {
  readonly id: string;
  readonly group: GroupName;
  readonly title: string;
  readonly docs: string;
  readonly extension: boolean;
  readonly status: CaseStatus;
  readonly durationMs: number;
  /** Why it failed or was skipped. */
  readonly reason?: string;
}
