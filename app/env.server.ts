import { isIP } from 'node:net';
import { z } from 'zod';
import { PASSWORD_MESSAGES, PASSWORD_RULE } from './domain/auth-schemas';
import { BUCKETS_RETENTION_MONTHS, READINGS_RETENTION_MONTHS } from './domain/retention';

// Environment variables, parsed once at start by one schema.
const flag = z.enum(['0', '1']).transform((value) => value === '1');

/**
 * Express's `trust proxy`: which proxies' X-Forwarded-For to believe, so that the limits and the
 * request log see the client's address, not the proxy's. Unset or `false`: none (the socket's
 * address). A hop count (`1`: the nearest proxy), or addresses and subnets, comma-separated, with
 * Express's names `loopback`, `linklocal`, `uniquelocal`. `true` trusts any sender and is refused:
 * a client could then choose its own address and escape every limit.
 */
export type TrustProxy = false | number | string[];
const PROXY_NAMES = new Set(['loopback', 'linklocal', 'uniquelocal']);
const isProxyAddress = (item: string) => {
  if (PROXY_NAMES.has(item)) return true;
  const [address, prefix, ...rest] = item.split('/');
  const family = isIP(address);
  if (!family || rest.length > 0) return false;
  return prefix === undefined || (/^\d+$/.test(prefix) && Number(prefix) <= (family === 4 ? 32 : 128));
};
const TrustProxySchema = z
  .string()
  .trim()
  .transform((value, context): TrustProxy => {
    if (value === '' || value === 'false' || value === '0') return false;
    if (/^\d+$/.test(value)) return Number(value);
    const items = value.split(',').map((item) => item.trim());
    const bad = items.find((item) => !isProxyAddress(item));
    if (bad !== undefined) {
      context.addIssue({ code: 'custom', message: `not a hop count, an address, a subnet or loopback/linklocal/uniquelocal: ${bad || '(empty)'}` });
      return z.NEVER;
    }
    return items;
  });

const EnvSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  DATABASE_URL: z.string().url().optional(),
  PORT: z.coerce.number().int().positive().default(3000),
  SESSION_SECRET: z.string().min(16).optional(),
  SMTP_URL: z.string().url().optional(),
  MAIL_FROM: z.string().default('On-Reco <no-reply@on-reco.local>'),
  ONRECO_OUTBOX_DIR: z.string().default('.data/outbox'),
  // Unset: the console's own address (http://localhost:PORT), so mail links follow PORT.
  ONRECO_PUBLIC_URL: z.string().url().optional(),
  ONRECO_DEMO: flag.optional(),
  ONRECO_DEMO_DAYS: z.coerce.number().int().min(0).max(400).default(7),
  // The demo logins must be able to change to, and keep, a password the product accepts.
  ONRECO_DEMO_PASSWORD: z.string().regex(PASSWORD_RULE, PASSWORD_MESSAGES.rule).optional(),
  ONRECO_SIMULATOR: flag.default('1'),
  ONRECO_NO_COMMUNICATION_MINUTES: z.coerce.number().int().min(1).default(60),
  ONRECO_TOKEN_HOURS: z.coerce.number().positive().default(12),
  // Whole months (the tables are partitioned by month); at least the 3 months a free-period report may span.
  ONRECO_READINGS_RETENTION_MONTHS: z.coerce.number().int().min(3).max(1200).default(READINGS_RETENTION_MONTHS),
  ONRECO_BUCKETS_RETENTION_MONTHS: z.coerce.number().int().min(3).max(1200).default(BUCKETS_RETENTION_MONTHS),
  // Web processes under `npm start` (one port), and worker processes per lane (app/jobs/worker.server.ts).
  WEB_CONCURRENCY: z.coerce.number().int().min(1).max(64).default(1),
  WORKER_CONCURRENCY: z.coerce.number().int().min(1).max(16).default(1),
  // /readyz fails when a worker lane has not beaten for this long (app/services/readiness.server.ts).
  ONRECO_WORKER_STALE_SECONDS: z.coerce.number().int().min(2).max(3600).default(30),
  TRUST_PROXY: TrustProxySchema.default('false'),
  // Bearer token for GET /metrics; unset: only scrapers on this host, not through a proxy.
  ONRECO_METRICS_TOKEN: z.string().min(16).optional(),
  // The readings' group commit (docs/decisions/220): the window a post waits for others, the readings that end it early, the writers side by side.
  ONRECO_INGEST_WINDOW_MS: z.coerce.number().int().min(0).max(1000).default(50),
  ONRECO_INGEST_BATCH_READINGS: z.coerce.number().int().min(1).max(100_000).default(2000),
  ONRECO_INGEST_WRITERS: z.coerce.number().int().min(1).max(16).default(2),
  // Webhook endpoints on loopback, link-local or private addresses (docs/decisions/314): off unless a
  // local relay or a test receiver needs them.
  ONRECO_WEBHOOK_PRIVATE_TARGETS: flag.default('0'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
})
  // The graphs read the buckets: readings kept longer than their buckets would not be drawn.
  .refine((env) => env.ONRECO_BUCKETS_RETENTION_MONTHS >= env.ONRECO_READINGS_RETENTION_MONTHS, {
    path: ['ONRECO_BUCKETS_RETENTION_MONTHS'],
    message: 'must be at least ONRECO_READINGS_RETENTION_MONTHS',
  })
  .transform(({ ONRECO_PUBLIC_URL, ...env }) => ({ ...env, ONRECO_PUBLIC_URL: ONRECO_PUBLIC_URL ?? `http://localhost:${env.PORT}` }));

export type Env = z.infer<typeof EnvSchema>;

/** The environment `source` describes, or an error naming every bad variable. */
export function parseEnv(source: Record<string, string | undefined>): Env {
  const result = EnvSchema.safeParse(source);
  if (!result.success) {
    const fields = result.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`).join('; ');
    throw new Error(`Invalid environment: ${fields}`);
  }
  return result.data;
}

let parsed: Env | undefined;

export function getEnv(): Env {
  parsed ??= parseEnv(process.env);
  return parsed;
}
