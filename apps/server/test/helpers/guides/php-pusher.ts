import { createHash, createHmac } from 'node:crypto';

/**
 * The requests and auth strings of pusher/pusher-php-server 7.2, the SDK that
 * Laravel's `pusher` broadcaster and the Crustum/Broadcasting CakePHP plugin
 * call. PHP does not run in this repository's tests, so its behaviour is
 * written out here, byte for byte where the daemon could tell the difference:
 * PHP's `json_encode` (escaped slashes, `\uXXXX` for everything past ASCII),
 * the `channel` field for a single channel, the query built by Guzzle
 * (`http_build_query`, RFC 3986) in the SDK's order, and its headers.
 */

export interface PhpPusherOptions {
  /** `scheme`, `host`, `port`, `path`, `useTLS`, `cluster`, as given to `new Pusher($key, $secret, $appId, $options)`. */
  scheme?: string | undefined;
  host?: string | null | undefined;
  port?: string | number | undefined;
  path?: string | undefined;
  useTLS?: unknown;
  cluster?: string | null | undefined;
  /** Laravel's config passes it; pusher-php-server 7 ignores it. */
  encrypted?: unknown;
}

/** PHP's `json_encode($value)` with the default flags. */
export function phpJsonEncode(value: unknown): string {
  return JSON.stringify(value)
    .replace(/\//g, '\\/')
    .replace(/[\u0080-\uffff]/g, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** `json_encode($value, JSON_UNESCAPED_SLASHES)`, the outer object of an auth response. */
function phpJsonEncodeUnescapedSlashes(value: unknown): string {
  return JSON.stringify(value).replace(/[\u0080-\uffff]/g, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** PHP's `rawurlencode`: everything but `A-Za-z0-9-_.~` as `%XX`. */
function rawUrlEncode(value: string): string {
  return encodeURIComponent(value).replace(/[!'()*]/g, (char) => `%${char.charCodeAt(0).toString(16).toUpperCase()}`);
}

/** What Guzzle does with a `query` array: `http_build_query($query, '', '&', PHP_QUERY_RFC3986)`, in the array's order. */
function guzzleQuery(params: [string, string][]): string {
  return params.map(([key, value]) => `${rawUrlEncode(key)}=${rawUrlEncode(value)}`).join('&');
}

/** The `X-Pusher-Library` value of the SDK version the plugin and Laravel install today. */
export const phpPusherLibrary = 'pusher-http-php 7.2.6';

export interface PhpRequest {
  method: 'GET' | 'POST';
  url: string;
  headers: Record<string, string>;
  body?: string;
}

/** `new Pusher\Pusher($key, $secret, $appId, $options)`: where it sends, what it signs. */
export class PhpPusher {
  readonly baseUrl: string;

  constructor(
    readonly key: string,
    readonly secret: string,
    readonly appId: string,
    options: PhpPusherOptions = {},
    /** Seconds since the epoch for `auth_timestamp`; now by default. */
    private readonly now: () => number = () => Math.floor(Date.now() / 1000),
  ) {
    // The constructor's rules, in its order: useTLS (default true) picks https:443
    // only when neither scheme nor port is given; host wins over cluster.
    const useTLS = options.useTLS === undefined ? true : options.useTLS === true;
    let scheme = options.scheme ?? 'http';
    let port = String(options.port ?? 80);
    if (useTLS && options.scheme === undefined && options.port === undefined) {
      scheme = 'https';
      port = '443';
    }
    let host: string;
    if ('host' in options) host = options.host ?? '';
    else if (options.cluster) host = `api-${options.cluster}.pusher.com`;
    else host = 'api-mt1.pusher.com';
    host = host.replace(/https?:\/\//, '');
    this.baseUrl = `${scheme}://${host}:${port}${options.path ?? ''}`;
  }

  /** `sign()`: the params plus auth_key/auth_timestamp/auth_version, ksorted, then auth_signature appended. */
  #signedQuery(method: 'GET' | 'POST', path: string, params: Record<string, string>): string {
    const all: Record<string, string> = { auth_key: this.key, auth_timestamp: String(this.now()), auth_version: '1.0', ...params };
    const sorted = Object.keys(all)
      .sort()
      .map((key): [string, string] => [key, all[key] ?? '']);
    const toSign = `${method}\n${path}\n${sorted.map(([key, value]) => `${key}=${value}`).join('&')}`;
    const signature = createHmac('sha256', this.secret).update(toSign).digest('hex');
    return guzzleQuery([...sorted, ['auth_signature', signature]]);
  }

  #request(method: 'GET' | 'POST', path: string, params: Record<string, string>, body?: string): PhpRequest {
    const fullPath = `/apps/${this.appId}${path}`;
    const query = this.#signedQuery(method, fullPath, body === undefined ? params : { ...params, body_md5: createHash('md5').update(body).digest('hex') });
    return {
      method,
      url: `${this.baseUrl}${fullPath}?${query}`,
      headers: { 'Content-Type': 'application/json', 'X-Pusher-Library': phpPusherLibrary },
      ...(body === undefined ? {} : { body }),
    };
  }

  /** `$pusher->trigger($channels, $event, $data, $params)`: `channel` for one channel, `channels` for more. */
  triggerRequest(channels: string | string[], event: string, data: unknown, params: { socket_id?: string } = {}): PhpRequest {
    const list = typeof channels === 'string' ? [channels] : channels;
    const body: Record<string, unknown> = { name: event, data: phpJsonEncode(data) };
    if (list.length === 1) body['channel'] = list[0];
    else body['channels'] = list;
    return this.#request('POST', '/events', {}, phpJsonEncode({ ...body, ...params }));
  }

  /** `$pusher->getChannelInfo($channel, ['info' => ...])`. */
  channelInfoRequest(channel: string, params: Record<string, string> = {}): PhpRequest {
    return this.#request('GET', `/channels/${channel}`, params);
  }

  /** `$pusher->authorizeChannel($channel, $socketId)`: the JSON string an auth endpoint returns. */
  authorizeChannel(channel: string, socketId: string, customData?: string): string {
    const toSign = customData ? `${socketId}:${channel}:${customData}` : `${socketId}:${channel}`;
    const auth: Record<string, string> = { auth: `${this.key}:${createHmac('sha256', this.secret).update(toSign).digest('hex')}` };
    if (customData) auth['channel_data'] = customData;
    return phpJsonEncodeUnescapedSlashes(auth);
  }

  /** `$pusher->authorizePresenceChannel($channel, $socketId, $userId, $userInfo)`: `channel_data` keeps PHP's escapes. */
  authorizePresenceChannel(channel: string, socketId: string, userId: string, userInfo?: Record<string, unknown>): string {
    const userData: Record<string, unknown> = { user_id: userId };
    if (userInfo) userData['user_info'] = userInfo;
    return this.authorizeChannel(channel, socketId, phpJsonEncode(userData));
  }

  /** `$pusher->authenticateUser($socketId, $userData)`. */
  authenticateUser(socketId: string, userData: Record<string, unknown>): string {
    const serialized = phpJsonEncode(userData);
    const signature = createHmac('sha256', this.secret).update(`${socketId}::user::${serialized}`).digest('hex');
    return phpJsonEncode({ auth: `${this.key}:${signature}`, user_data: serialized });
  }
}

/** Sends a request the way Guzzle would (the exact URL, headers and body bytes). */
export async function sendPhpRequest(request: PhpRequest): Promise<{ status: number; body: string }> {
  const response = await fetch(request.url, {
    method: request.method,
    headers: { ...request.headers, 'User-Agent': 'GuzzleHttp/7' },
    ...(request.body === undefined ? {} : { body: request.body }),
  });
  return { status: response.status, body: await response.text() };
}
