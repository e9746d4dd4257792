import { signRequest } from '@org/protocol/signing';
import type { DemoStack } from './stack.js';

export const USER_CHANNEL = 'private-App.Model.Entity.User.1';

/** Asks the daemon's HTTP API (signed, as the Pusher SDK would) how many connections hold the user's channel. */
export async function channelSubscriptionCount(stack: DemoStack): Promise<number> {
  const { appId, key, secret, host, port } = stack.options.realtime;
  const path = `/apps/${appId}/channels/${USER_CHANNEL}`;
  const query = signRequest({ key, secret }, { method: 'GET', path, query: { info: 'subscription_count' } });
  const response = await fetch(`http://${host}:${port}${path}?${query}`);
  if (!response.ok) throw new Error(`channel info answered ${response.status}: ${await response.text()}`);
  const body = (await response.json()) as { occupied: boolean; subscription_count?: number };
  return body.subscription_count ?? (body.occupied ? 1 : 0);
}
