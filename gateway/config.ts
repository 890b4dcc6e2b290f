// The gateway's options, each declared once, in one schema.
// Precedence: schema defaults <- JSON file (--config / ONRECO_GATEWAY_CONFIG) <- environment
// (ONRECO_GATEWAY_<UPPER_SNAKE_KEY>) <- command-line flags (--kebab-key).
import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { MAX_READINGS_PER_BATCH } from './protocol';

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
    dataDir: z.string().min(1).default('/var/lib/onreco-gateway').describe('data directory: token, sensor list, buffer, status'),
    server: z.string().url().optional().describe('console base URL; pair saves it, this overrides the saved one'),
    logLevel: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info').describe('log level'),
    source: SourceSpecSchema.default('bluez').describe('bluez, simulate, or replay:FILE (a capture, played as fast as possible)'),
    adapter: z.string().regex(/^hci\d+$/).optional().describe('BlueZ adapter (hci0, ...); the first one when unset'),
    bluezStallSeconds: int(30).default(300).describe('restart BLE discovery when nothing at all was heard for this long'),
    simulateSpeed: z.coerce.number().positive().max(3600).default(1).describe('simulate: simulated seconds per real second'),
    closeGraceSeconds: int(0, 30).default(2).describe('live sources: how long after its end an interval is closed'),
    configRefreshSeconds: int(10).default(600).describe('how often the store configuration is fetched again'),
    uploadBatchSize: int(1, MAX_READINGS_PER_BATCH).default(MAX_READINGS_PER_BATCH).describe(`readings per upload, at most ${MAX_READINGS_PER_BATCH}`),
    uploadDelayMs: int(0, 600_000).default(1000).describe('wait after new readings so that one upload carries them all'),
    retryBaseMs: int(1).default(1000).describe('first retry delay ceiling (exponential backoff, full jitter)'),
    retryMaxMs: int(1).default(300_000).describe('largest retry delay ceiling'),
    retryAfterMaxSeconds: int(1).default(3600).describe("a server's Retry-After is honoured up to this"),
    requestTimeoutMs: int(100).default(30_000).describe('HTTP request timeout'),
    bufferMaxRows: int(10).default(2_000_000).describe('readings kept at most; beyond, the oldest are dropped, loudly'),
    bufferWarnRatio: z.coerce.number().gt(0).max(1).default(0.8).describe('warn when the buffer is this full'),
    statusIntervalSeconds: int(1).default(10).describe('how often the daemon writes its status file'),
    exitWhenDrained: booleanish.default(false).describe('replay: finish the file, upload everything, exit 0 once the buffer is empty'),
    modem: z.string().regex(/^(modemmanager|none|replay:.+)$/, 'must be modemmanager, none or replay:FILE').default('modemmanager').describe('LTE signal for the health report: modemmanager (D-Bus), none, or replay:FILE (recorded answers)'),
    releaseDir: z.string().min(1).optional().describe('releases from the console: versioned directories and the current link (default: DATA_DIR/releases)'),
    releaseKey: z.string().min(1).default('/usr/lib/onreco-gateway/release-key.pem').describe('the ed25519 public key (PEM) releases must be signed with; without it no update is taken'),
    updateHealthySeconds: int(5, 86_400).default(600).describe('a new release that has not uploaded successfully within this long is rolled back'),
    updateCrashStarts: int(1, 20).default(3).describe('a new release that exits this many times before it is healthy is rolled back'),
    healthCheckSeconds: int(1, 300).default(30).describe('how often the health report is collected (sent when due: hourly with uploads, every 5 minutes when idle, at once on a change that matters)'),
  })
  .strict();

export type GatewayConfig = z.infer<typeof GatewayConfigSchema>;
export type ConfigKey = keyof GatewayConfig;

export const CONFIG_KEYS = Object.keys(GatewayConfigSchema.shape) as ConfigKey[];
export const CONFIG_DEFAULTS: Partial<GatewayConfig> = GatewayConfigSchema.parse({});

/** The help text of an option. */
export const describeOption = (key: ConfigKey): string => GatewayConfigSchema.shape[key].description ?? key;
export const ENV_PREFIX = 'ONRECO_GATEWAY_';
export const CONFIG_FILE_ENV = `${ENV_PREFIX}CONFIG`;

export const envName = (key: string) => ENV_PREFIX + key.replace(/[A-Z]/g, (c) => `_${c}`).toUpperCase();
export const flagName = (key: string) => '--' + key.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);

export class ConfigError extends Error {}

/** Environment variables (process.env, or a test's own). */
export type Env = Record<string, string | undefined>;

export interface ConfigSources {
  /** Path of a JSON file, or undefined for none. */
  file?: string;
  env?: Env;
  /** Flag values keyed like the schema (commander's camelCase attribute names); undefined = not given. */
  flags?: Partial<Record<string, unknown>>;
}

type Origin = 'default' | 'file' | 'environment' | 'flag';

export function loadConfig(sources: ConfigSources): GatewayConfig {
  const env: Env = sources.env ?? {};
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
