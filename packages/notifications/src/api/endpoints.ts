import { NOTIFICATION_ROUTES } from '../contract.js';
import type { Route } from '../contract.js';

/** One path of the API (as a hono pattern) and the methods it answers (HEAD is answered wherever GET is). */
export interface Endpoint {
  path: string;
  methods: readonly string[];
}

// Characters with a meaning in a regular expression, escaped where a path suffix becomes one.
const REGEX_SPECIAL = /[.*+?^${}()|[\]\\]/g;

/**
 * The hono pattern of a contract path template. A segment that is only a parameter, `{id}`,
 * becomes `:id`. hono matches a parameter against a whole segment, so a parameter followed by a
 * suffix, `{id}.json`, becomes `:id{[^/]+\.json}`: its value keeps the suffix (see `withoutSuffix`).
 */
export function honoPath(template: string): string {
  return template
    .split('/')
    .map((segment) => {
      const parameter = /^\{(\w+)\}(.*)$/.exec(segment);
      if (!parameter) return segment;
      const [, name, suffix] = parameter;
      return suffix ? `:${name}{[^/]+${suffix.replace(REGEX_SPECIAL, '\\$&')}}` : `:${name}`;
    })
    .join('/');
}

/** The value of a `{name}<suffix>` parameter without its suffix. */
export function withoutSuffix(value: string, suffix: string): string {
  return value.endsWith(suffix) ? value.slice(0, -suffix.length) : value;
}

/** The routes grouped by path, in the table's order (most specific first), with their methods. */
function endpointsOf(routes: Readonly<Record<string, Route>>): Endpoint[] {
  const byPath = new Map<string, string[]>();
  for (const route of Object.values(routes)) {
    const methods = byPath.get(route.path) ?? [];
    methods.push(route.method);
    byPath.set(route.path, methods);
  }
  return [...byPath].map(([path, methods]) => ({ path: honoPath(path), methods }));
}

/**
 * Every endpoint of the contract's route table, most specific first: a request is judged by the
 * first pattern it matches, which is how a wrong method gets 405 with `Allow` instead of reaching
 * another route.
 */
export const ENDPOINTS: readonly Endpoint[] = endpointsOf(NOTIFICATION_ROUTES);

/** The `Allow` header of an endpoint. */
export function allowedMethods(endpoint: Endpoint): string {
  return (endpoint.methods.includes('GET') ? [...endpoint.methods, 'HEAD'] : endpoint.methods).join(', ');
}
