import type { Endpoint } from '../target.js';

/** `ws://host:port` or `wss://host:port` (IPv6 hosts bracketed). */
export function webSocketBase(node: Endpoint): string {
  return `${node.tls ? 'wss' : 'ws'}://${hostPart(node.host)}:${node.port}`;
}

/** `http://host:port` or `https://host:port`. */
export function httpBase(node: Endpoint): string {
  return `${node.tls ? 'https' : 'http'}://${hostPart(node.host)}:${node.port}`;
}

function hostPart(host: string): string {
  return host.includes(':') && !host.startsWith('[') ? `[${host}]` : host;
}
