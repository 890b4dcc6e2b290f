// The gateway's options, each declared once, in one schema.
// Precedence: schema defaults <- JSON file (--config / ONRECO_GATEWAY_CONFIG) <- environment
// (ONRECO_GATEWAY_<UPPER_SNAKE_KEY>) <- command-line flags (--kebab-key).
import { readFileSync } from 'node:fs';
import { z } from 'zod';

const booleanish = z.preprocess((v) => {
  if (typeof v !== 'string') return v;
  const s = v.trim().toLowerCase();
  if (['1', 'true', 'yes', 'on'].includes(s)) return true;
  if (['0', 'false', 'no', 'off', ''].includes(s)) return false;
  return v;
}, z.boolean());

const int = (min: number, max = Number.MAX_SAFE_INTEGER) => z.coerce.number().int().min(min).max(max);

/** `bluez`, `simulate` or `replay:FILE`. */
export const SourceSpecSchema = z
  .string()
  .regex(/^(bluez|simulate|replay:.+)$/, 'must be bluez, simulate or replay:FILE');

export const GatewayConfigSchema = z
  .object({
    /** Where the token, the store's sensor list, the buffer and the status file live. */
    dataDir: z.string().min(1).default('/var/lib/onreco-gateway'),
    /** Console base URL; `pair` stores it, and this overrides the stored one. */
    server: z.string().url().optional(),
    logLevel: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
    source: SourceSpecSchema.default('bluez'),
    /** BlueZ adapter name (hci0, ...); the first adapter when unset. */
    adapter: z.string().regex(/^hci\d+$/).optional(),
    /** Restart BLE discovery when nothing at all was heard for this long. */
    bluezStallSeconds: int(30).default(300),
    /** Simulate source only: how many simulated seconds pass per real second (benchmarks, demos). */
    simulateSpeed: z.coerce.number().positive().max(3600).default(1),
    /** Live sources: how long after an interval ends its reading is closed (late advertisements). */
    closeGraceSeconds: int(0, 30).default(2),
    configRefreshSeconds: int(10).default(600),
    uploadBatchSize: int(1, 5000).default(5000),
    /** After new readings are buffered, wait this long so that one upload carries them all. */
    uploadDelayMs: int(0, 600_000).default(1000),
    retryBaseMs: int(1).default(1000),
    retryMaxMs: int(1).default(300_000),
    /** A server's Retry-After is honoured up to this many seconds. */
    retryAfterMaxSeconds: int(1).default(3600),
    requestTimeoutMs: int(100).default(30_000),
    /** Rows kept at most; beyond this the oldest readings are dropped (loudly). */
    bufferMaxRows: int(10).default(2_000_000),
    /** Warn when the buffer is this full. */
    bufferWarnRatio: z.coerce.number().gt(0).max(1).default(0.8),
    statusIntervalSeconds: int(1).default(10),
    /** Replay: exit 0 once the file is done and the buffer is empty. */
    exitWhenDrained: booleanish.default(false),
  })
  .strict();

export type GatewayConfig = z.infer<typeof GatewayConfigSchema>;
export type ConfigKey = keyof GatewayConfig;

export const CONFIG_KEYS = Object.keys(GatewayConfigSchema.shape) as ConfigKey[];
export const ENV_PREFIX = 'ONRECO_GATEWAY_';
export const CONFIG_FILE_ENV = `${ENV_PREFIX}CONFIG`;

export const envName = (key: string) => ENV_PREFIX + key.replace(/[A-Z]/g, (c) => `_${c}`).toUpperCase();
export const flagName = (key: string) => '--' + key.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);

export class ConfigError extends Error {}

export interface ConfigSources {
  /** Path of a JSON file, or undefined for none. */
  file?: string;
  env?: NodeJS.ProcessEnv;
  /** Flag values keyed like the schema (commander's camelCase attribute names); undefined = not given. */
  flags?: Partial<Record<string, unknown>>;
}

type Origin = 'default' | 'file' | 'environment' | 'flag';

export function loadConfig(sources: ConfigSources): GatewayConfig {
  const env: NodeJS.ProcessEnv = sources.env ?? ({} as NodeJS.ProcessEnv);
  const merged: Record<string, unknown> = {};
  const origin: Record<string, Origin> = {};
  const file = sources.file ?? env[CONFIG_FILE_ENV];

  if (file) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(readFileSync(file, 'utf8'));
    } catch (e) {
      throw new ConfigError(`cannot read config file ${file}: ${(e as Error).message}`);
    }
    if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) {
      throw new ConfigError(`config file ${file} must hold a JSON object`);
    }
    for (const [key, value] of Object.entries(parsed)) {
      merged[key] = value;
      origin[key] = 'file';
    }
  }
  for (const key of CONFIG_KEYS) {
    const value = env[envName(key)];
    if (value !== undefined && value !== '') {
      merged[key] = value;
      origin[key] = 'environment';
    }
  }
  for (const key of CONFIG_KEYS) {
    const value = sources.flags?.[key];
    if (value !== undefined) {
      merged[key] = value;
      origin[key] = 'flag';
    }
  }

  const result = GatewayConfigSchema.safeParse(merged);
  if (!result.success) {
    const lines = result.error.issues.map((issue) => {
      if (issue.code === 'unrecognized_keys') {
        return `unknown option${issue.keys.length > 1 ? 's' : ''} ${issue.keys.join(', ')} in ${file ?? 'config'}`;
      }
      const key = String(issue.path[0] ?? '');
      const where = describeOrigin(key, origin[key] ?? 'default', file);
      return `${key} (${where}): ${issue.message}`;
    });
    throw new ConfigError(`invalid configuration: ${lines.join('; ')}`);
  }
  return result.data;
}

function describeOrigin(key: string, origin: Origin, file: string | undefined): string {
  switch (origin) {
    case 'file':
      return `from ${file}`;
    case 'environment':
      return `from ${envName(key)}`;
    case 'flag':
      return `from ${flagName(key)}`;
    default:
      return 'default';
  }
}
