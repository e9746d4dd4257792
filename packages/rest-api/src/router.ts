import { decodeParam, routingPath } from './request-target.js';

/** A path pattern in hono syntax (`/apps/:appId/channels/:channelName`), compiled once. */
interface CompiledPattern<Route> {
  route: Route;
  /** Literal segment text, or undefined for a `:param` segment. */
  literals: readonly (string | undefined)[];
  /** The names of the `:param` segments, in order. */
  names: readonly string[];
}

export interface RouteMatch<Route> {
  route: Route;
  /** Percent-decoded. */
  params: Record<string, string>;
}

interface Router<Route> {
  /** The route whose pattern matches the whole path, whatever the method; undefined for none. */
  match(path: string): RouteMatch<Route> | undefined;
}

/**
 * A router for a small fixed table: each pattern is tried in order, segment by segment, without
 * splitting the path. Semantics are hono's (so the hono adapter and plain servers agree): the
 * path is percent-decoded before matching (keeping `%2F`), a `:param` is one non-empty segment,
 * a trailing slash is significant, parameters are decoded once more.
 */
export function createRouter<Route>(prefix: string, routes: readonly { pattern: string; route: Route }[]): Router<Route> {
  const compiled: CompiledPattern<Route>[] = routes.map(({ pattern, route }) => {
    const segments = `${prefix}${pattern}`.split('/').slice(1);
    return {
      route,
      literals: segments.map((segment) => (segment.startsWith(':') ? undefined : segment)),
      names: segments.filter((segment) => segment.startsWith(':')).map((segment) => segment.slice(1)),
    };
  });

  return {
    match(rawPath) {
      const path = routingPath(rawPath);
      for (const pattern of compiled) {
        const params = matchPattern(pattern, path);
        if (params) return { route: pattern.route, params };
      }
      return undefined;
    },
  };
}

function matchPattern<Route>(pattern: CompiledPattern<Route>, path: string): Record<string, string> | undefined {
  const { literals, names } = pattern;
  let params: Record<string, string> | undefined;
  let parameter = 0;
  let at = 0;
  for (const literal of literals) {
    if (path.charCodeAt(at) !== 0x2f) return undefined;
    const start = at + 1;
    let end = path.indexOf('/', start);
    if (end === -1) end = path.length;
    if (literal === undefined) {
      if (end === start) return undefined;
      params ??= {};
      params[names[parameter++] as string] = decodeParam(path.slice(start, end));
    } else if (end - start !== literal.length || !path.startsWith(literal, start)) {
      return undefined;
    }
    at = end;
  }
  return at === path.length ? (params ?? {}) : undefined;
}
