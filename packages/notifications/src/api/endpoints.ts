/** One path of the API and the methods it answers (HEAD is answered wherever GET is). */
export interface Endpoint {
  path: string;
  methods: readonly string[];
}

/**
 * Every endpoint, most specific first: a request is judged by the first pattern it matches,
 * which is how a wrong method gets 405 with `Allow` instead of reaching another route.
 */
export const ENDPOINTS: readonly Endpoint[] = [
  { path: '/notification/notifications.json', methods: ['GET', 'DELETE'] },
  { path: '/notification/notifications/unread.json', methods: ['GET'] },
  { path: '/notification/notifications/mark-all-read.json', methods: ['PATCH'] },
  { path: '/notification/notifications/:id/read.json', methods: ['PATCH'] },
  { path: '/notification/notifications/:id/unread.json', methods: ['PATCH'] },
  { path: '/notification/notifications/:id/archive.json', methods: ['PATCH'] },
  { path: '/notification/notifications/:id/unarchive.json', methods: ['PATCH'] },
  { path: '/notification/notifications/:file{[^/]+\\.json}', methods: ['GET', 'DELETE'] },
  { path: '/broadcasting/auth', methods: ['POST'] },
];

/** The `Allow` header of an endpoint. */
export function allowedMethods(endpoint: Endpoint): string {
  return (endpoint.methods.includes('GET') ? [...endpoint.methods, 'HEAD'] : endpoint.methods).join(', ');
}
