import type { ApiRoute } from './endpoint.js';

/** An endpoint's full path (`{prefix}/apps/:appId{path}`) split into literal and `:param` segments. */
export interface CompiledRoute {
  endpoint: ApiRoute;
  /** `/apps/:appId/events`: the pattern reported to `onResponse`, as the hono app does. */
  pattern: string;
  segments: readonly string[];
}

export interface RouteMatch {
  route: CompiledRoute;
  params: Record<string, string>;
}

export function compileRoutes(pathPrefix: string, endpoints: readonly ApiRoute[]): CompiledRoute[] {
  return endpoints.map((endpoint) => {
    const pattern = `/apps/:appId${endpoint.path}`;
    return { endpoint, pattern, segments: `${pathPrefix}${pattern}`.split('/') };
  });
}

/**
 * The endpoint whose method and path match, with percent-decoded params, or
 * undefined (unknown path, other method, or a path whose decoding a full URL
 * parser might do differently: those are left to the hono app).
 */
export function matchRoute(routes: readonly CompiledRoute[], method: string, path: string): RouteMatch | undefined {
  // Dot segments (also percent-encoded), empty segments and backslashes are rewritten by a URL
  // parser before hono routes; leaving them to the hono app keeps both answers the same.
  if (path.includes('/.') || path.includes('//') || path.includes('\\') || /%2e/i.test(path)) return undefined;
  const parts = path.split('/');
  for (const route of routes) {
    if (route.endpoint.method !== method || route.segments.length !== parts.length) continue;
    const params: Record<string, string> = {};
    let matched = true;
    for (let index = 0; index < parts.length && matched; index++) {
      const segment = route.segments[index] as string;
      const part = parts[index] as string;
      if (segment.startsWith(':')) {
        const value = decodeSegment(part);
        if (value === undefined || value === '') matched = false;
        else params[segment.slice(1)] = value;
      } else if (segment !== part) {
        matched = false;
      }
    }
    if (matched) return { route, params };
  }
  return undefined;
}

function decodeSegment(part: string): string | undefined {
  if (!part.includes('%')) return part;
  try {
    return decodeURIComponent(part);
  } catch {
    return undefined;
  }
}
