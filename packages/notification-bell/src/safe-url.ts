/*
 * Notification URLs come from data, so they are never trusted to be links: only http(s) and
 * relative URLs are followed or rendered as `href`. The rule is the contract's own (the API
 * applies it when a notification is stored); the bell checks again, for data from any backend.
 */
import { isSafeUrl as followsUrlRule } from '@org/notifications/contract';

/**
 * True for `http:`, `https:` and relative URLs without control characters, whitespace or
 * unpaired surrogates. The empty string, which the rule allows (this page), is no link here.
 */
export function isSafeUrl(value: unknown): value is string {
  return value !== '' && followsUrlRule(value);
}

/** The URL when it is safe to follow, otherwise null. */
export function safeUrlOrNull(value: unknown): string | null {
  return isSafeUrl(value) ? value : null;
}
