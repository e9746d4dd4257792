import { Redis } from 'ioredis';

/** What the hostile-connection bench reads from the Redis it watches: key count and used memory. */
export class RedisProbe {
  readonly #redis: Redis;

  private constructor(redis: Redis) {
    this.#redis = redis;
  }

  static async open(url: string): Promise<RedisProbe> {
    const redis = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 1 });
    await redis.connect();
    return new RedisProbe(redis);
  }

  dbsize(): Promise<number> {
    return this.#redis.dbsize();
  }

  async usedMemory(): Promise<number> {
    const match = /^used_memory:(\d+)/m.exec(await this.#redis.info('memory'));
    return match ? Number(match[1]) : Number.NaN;
  }

  close(): void {
    this.#redis.disconnect();
  }
}
