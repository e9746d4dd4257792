import type { UrlFormat } from './options.js';
import { safeDecode } from './secret-forms.js';
import type { UrlParts } from './url-parts.js';

export interface MaskedUrlStyle {
  readonly format: UrlFormat;
  readonly marker: string;
  /** Inside free text the credentials' extent is a guess: they become one marker whatever the format. */
  readonly inText: boolean;
}

/**
 * A URL with its credentials masked: the userinfo, every query value, the
 * fragment, and the path from `secretPathStart` on (-1: none of it). The scheme,
 * host, port and the rest of the path stay as written.
 */
export function formatMaskedUrl(parts: UrlParts, secretPathStart: number, style: MaskedUrlStyle): string {
  const { format, marker } = style;
  const path = secretPathStart >= 0 ? `${parts.path.slice(0, secretPathStart)}${marker}` : parts.path;
  if (format === 'bare') return `${parts.scheme}${parts.host}${path}`;
  if (format === 'compact') {
    const userinfo = parts.userinfo === undefined ? '' : `${marker}@`;
    // A masked path runs to the end: what follows it (a query) is part of the same secret run.
    if (secretPathStart >= 0) return `${parts.scheme}${userinfo}${parts.host}${path}`;
    const tail = parts.query !== undefined || parts.fragment !== undefined ? `?${marker}` : '';
    return `${parts.scheme}${userinfo}${parts.host}${path}${tail}`;
  }
  const fragment = parts.fragment ? `#${marker}` : '';
  return `${parts.scheme}${markedUserinfo(parts.userinfo, style)}${parts.host}${path}${markedQuery(parts.query, marker)}${fragment}`;
}

/** `M:M@`, `M@` or `:M@` as the user name and password are there; nothing for an empty userinfo. */
function markedUserinfo(userinfo: string | undefined, { marker, inText }: MaskedUrlStyle): string {
  if (userinfo === undefined || userinfo === '' || userinfo === ':') return '';
  if (inText) return `${marker}@`;
  const colon = userinfo.indexOf(':');
  const user = colon >= 0 ? userinfo.slice(0, colon) : userinfo;
  const password = colon >= 0 ? userinfo.slice(colon + 1) : '';
  return `${user ? marker : ''}${password ? `:${marker}` : ''}@`;
}

/**
 * `?name=M&other=M`: the names stay (they say what the URL is for), the values go.
 * An item without `=` is all value (`?<token>`) and is masked whole.
 */
function markedQuery(query: string | undefined, marker: string): string {
  if (query === undefined) return '';
  const items = query.split('&').filter((item) => item !== '');
  if (items.length === 0) return '';
  return `?${items.map((item) => (item.includes('=') ? `${queryName(item.slice(0, item.indexOf('=')))}=${marker}` : marker)).join('&')}`;
}

/** A query name as URLSearchParams reads it (`+` is a space), percent-encoded again. */
function queryName(raw: string): string {
  const name = safeDecode(raw.replace(/\+/g, ' '));
  try {
    return encodeURIComponent(name);
  } catch {
    return encodeURIComponent(name.replace(/[\ud800-\udfff]/g, '\ufffd'));
  }
}
