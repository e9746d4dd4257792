import { maskUrl, Redactor } from '../redact.js';
import type { ChatHttpRequest, ChatHttpResponse, ChatTransport } from '../transport.js';

export interface RecordedRequest {
  readonly url: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string;
  /** The parsed JSON body. */
  readonly payload: unknown;
}

export type Responder = (request: RecordedRequest) => ChatHttpResponse | Promise<ChatHttpResponse>;

const SUCCESS: ChatHttpResponse = { status: 200, headers: { 'content-type': 'application/json' }, body: '{"success":true}' };

/** An in-memory transport: records each request and answers like Rocket.Chat (200 `{"success":true}`) unless told otherwise. */
export class RecordingTransport implements ChatTransport {
  readonly requests: RecordedRequest[] = [];
  readonly #respond: Responder;

  constructor(respond: Responder = () => SUCCESS) {
    this.#respond = respond;
  }

  async post(request: ChatHttpRequest): Promise<ChatHttpResponse> {
    const recorded: RecordedRequest = {
      url: request.url,
      headers: { ...request.headers },
      body: request.body,
      payload: JSON.parse(request.body) as unknown,
    };
    this.requests.push(recorded);
    return this.#respond(recorded);
  }

  /**
   * `requests[i].url` stays exact for assertions, but printing the transport
   * masks the webhook URLs and credential headers, as everywhere else.
   */
  [Symbol.for('nodejs.util.inspect.custom')](): { requests: unknown[] } {
    return this.toJSON();
  }

  toJSON(): { requests: unknown[] } {
    return {
      requests: this.requests.map((r) => {
        const redactor = Redactor.forWebhook(r.url);
        return { url: maskUrl(r.url), headers: redactor.headers(r.headers), body: redactor.text(r.body) };
      }),
    };
  }
}
