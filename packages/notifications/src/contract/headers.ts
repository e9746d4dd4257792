/** Request headers the API reads and the bell sends. */

/** The CSRF token of a mutation (PATCH, DELETE, POST); the API's `csrf.headerName` can rename it. */
export const CSRF_TOKEN_HEADER = 'X-CSRF-Token';

/** The realtime socket id of the acting tab: the API leaves that connection out of the change's broadcast. */
export const SOCKET_ID_HEADER = 'X-Socket-ID';
