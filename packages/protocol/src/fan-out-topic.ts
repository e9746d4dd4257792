/** The fan-out topic of a channel (uWS topics are global, apps share them): also the key of a channel of an app. */
export function fanOutTopic(appId: string, channel: string): string {
  return `${appId}\u0000${channel}`;
}
