import { randomBytes } from 'node:crypto';
import { z } from 'zod';
import { DemoError } from './errors.js';

/** Where the realtime daemon is: its HTTP API (server side) and its WebSocket endpoint (browser side). */
export interface RealtimeOptions {
  host: string;
  port: number;
  appId: string;
  key: string;
  secret: string;
  /** What the browser connects to; defaults to host/port. */
  wsHost: string;
  wsPort: number;
}

export interface DemoOptions {
  /** Loopback only: the demo has a fake login. */
  host: '127.0.0.1';
  /** 0 picks a free port. */
  port: number;
  realtime: RealtimeOptions;
  /** Signs the session cookie and derives CSRF tokens. */
  secret: string;
  /** PGlite data directory; in memory when absent. */
  dataDir?: string;
  /** How many notifications the demo user starts with (and gets back on reset). */
  seedCount: number;
}

const port = (name: string, fallback: number) =>
  z.coerce
    .number({ message: `${name} must be a port number` })
    .int(`${name} must be a whole number`)
    .min(0, `${name} must be 0-65535`)
    .max(65_535, `${name} must be 0-65535`)
    .default(fallback);

const text = (fallback: string) => z.string().min(1).default(fallback);

const envSchema = z.object({
  DEMO_HOST: z.literal('127.0.0.1', { message: 'DEMO_HOST must be 127.0.0.1 (the demo signs everyone in as one user)' }).default('127.0.0.1'),
  DEMO_PORT: port('DEMO_PORT', 3000),
  DEMO_SECRET: z.string().min(16, 'DEMO_SECRET must be at least 16 characters').optional(),
  DEMO_DATA_DIR: z.string().min(1).optional(),
  DEMO_SEED_COUNT: z.coerce.number().int().min(0).max(200).default(14),
  REALTIME_HOST: text('127.0.0.1'),
  REALTIME_PORT: port('REALTIME_PORT', 6001).refine((value) => value > 0, 'REALTIME_PORT must be the daemon port (1-65535)'),
  REALTIME_APP_ID: text('demo-app'),
  REALTIME_APP_KEY: text('demo-key'),
  REALTIME_APP_SECRET: text('demo-secret'),
  REALTIME_WS_HOST: z.string().min(1).optional(),
  REALTIME_WS_PORT: port('REALTIME_WS_PORT', 0).optional(),
});

/** Reads the demo's options from the environment, once, at start; the message names the variable. */
export function demoOptionsFromEnv(env: Record<string, string | undefined> = process.env): DemoOptions {
  // Empty variables count as unset, as in most shells' `VAR= cmd`.
  const present = Object.fromEntries(Object.entries(env).filter(([, value]) => value !== undefined && value !== ''));
  const parsed = envSchema.safeParse(present);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const name = issue?.path.join('.') ?? '(env)';
    throw new DemoError('INVALID_OPTION', `Invalid environment variable ${name}: ${issue?.message ?? 'invalid'}`);
  }
  const e = parsed.data;
  const options: DemoOptions = {
    host: e.DEMO_HOST,
    port: e.DEMO_PORT,
    realtime: {
      host: e.REALTIME_HOST,
      port: e.REALTIME_PORT,
      appId: e.REALTIME_APP_ID,
      key: e.REALTIME_APP_KEY,
      secret: e.REALTIME_APP_SECRET,
      wsHost: e.REALTIME_WS_HOST ?? e.REALTIME_HOST,
      wsPort: e.REALTIME_WS_PORT || e.REALTIME_PORT,
    },
    secret: e.DEMO_SECRET ?? randomBytes(32).toString('hex'),
    seedCount: e.DEMO_SEED_COUNT,
  };
  if (e.DEMO_DATA_DIR !== undefined) options.dataDir = e.DEMO_DATA_DIR;
  return options;
}
