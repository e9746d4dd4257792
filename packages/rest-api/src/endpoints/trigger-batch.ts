import { prepareTrigger, RealtimeError, type ChannelAttributes, type PreparedTrigger } from '@org/protocol';
import { defineEndpoint } from '../endpoint.js';
import { PusherApiError } from '../errors.js';
import { parseBatchBody, parseInfo } from '../request-body.js';

/**
 * `POST /apps/:appId/batch_events`: up to the app's `maxBatchSize` events,
 * each to one channel. All are validated before any is published.
 */
export const triggerBatch = defineEndpoint({
  method: 'POST',
  idempotent: true,
  path: '/batch_events',
  parse({ app, body, maxJsonDepth }): PreparedTrigger[] {
    const { batch } = parseBatchBody(body, maxJsonDepth);
    if (batch.length === 0) throw new PusherApiError('INVALID_FIELD', '"batch" must contain at least one event');
    if (batch.length > app.maxBatchSize) {
      throw new PusherApiError('INVALID_FIELD', `"batch" may contain at most ${app.maxBatchSize} events, got ${batch.length}`);
    }
    return batch.map((item, index) => {
      try {
        return prepareTrigger(app, {
          name: item.name,
          data: item.data,
          channels: [item.channel],
          socketId: item.socket_id,
          info: parseInfo(item.info),
        });
      } catch (error) {
        // Keep the engine's code (PAYLOAD_TOO_LARGE stays a 413), name the item.
        if (error instanceof RealtimeError) throw new RealtimeError(error.code, `batch[${index}]: ${error.message}`, { cause: error });
        throw error;
      }
    });
  },
  cost: (events) => ({ kind: 'backend_events', points: events.reduce((sum, event) => sum + event.channels.length, 0) }),
  async run(server, app, events) {
    const results: ChannelAttributes[] = [];
    for (const event of events) {
      const channels = await server.trigger(app, event);
      results.push(channels?.[event.channels[0] ?? ''] ?? {});
    }
    return events.some((event) => event.info?.length) ? { batch: results } : {};
  },
});
