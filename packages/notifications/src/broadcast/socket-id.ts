/** Pusher socket ids are two dot-separated integers, e.g. `123.456`. */
export const SOCKET_ID = /^\d+\.\d+$/;
