import { prepareTrigger, type PreparedTrigger } from '@org/protocol';
import { defineEndpoint } from '../endpoint.js';
import { parseEventBody, parseInfo } from '../request-body.js';

/** `POST /apps/:appId/events`: one event to 1..maxChannelsPerEvent channels. */
export const triggerEvent = defineEndpoint({
  method: 'POST',
  idempotent: true,
  path: '/events',
  parse({ app, body, maxJsonDepth }): PreparedTrigger {
    const parsed = parseEventBody(body, maxJsonDepth);
    // Checked here, once, before the rate limiter is charged for it; the engine does not check it again.
    return prepareTrigger(app, {
      name: parsed.name,
      data: parsed.data,
      channels: parsed.channels ?? (parsed.channel === undefined ? [] : [parsed.channel]),
      socketId: parsed.socket_id,
      info: parseInfo(parsed.info),
    });
  },
  cost: (event) => ({ kind: 'backend_events', points: event.channels.length }),
  async run(server, app, event) {
    const channels = await server.trigger(app, event);
    return channels ? { channels } : {};
  },
});
