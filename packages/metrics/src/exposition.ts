import type { Registry } from 'prom-client';

/** A scrape's answer: the body in the text exposition format, and its content type. */
export interface Exposition {
  contentType: string;
  body: string;
}

/**
 * A registry in the text exposition format. prom-client writes a NaN value as `Nan` (an event-loop
 * delay with no sample since the previous scrape); the format says `NaN`, and strict parsers refuse the other.
 */
export async function exposition(registry: Registry): Promise<Exposition> {
  const body = await registry.metrics();
  return { contentType: registry.contentType, body: body.includes(' Nan') ? body.replace(/^([^#\n].*) Nan$/gm, '$1 NaN') : body };
}
