import { Command } from 'commander';
import { CONFIG_DEFAULTS, CONFIG_KEYS, ConfigError, describeOption, flagName, loadConfig, type ConfigKey, type Env, type GatewayConfig } from '../config';
import { createLogger, type Logger } from '../log';

/** What a command may touch of the outside world; tests pass their own. */
export interface CliContext {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  env: Env;
  /** Resolves when the process is asked to stop (SIGINT/SIGTERM); main.ts wires it. */
  waitForStop: () => Promise<string>;
  /** Where logs go (fd or stream); stderr by default. */
  logDestination?: NodeJS.WritableStream | number;
  exitCode: number;
}

/** A failure the user can act on: printed as one line, exit 1. */
export class UsageError extends Error {}

/**
 * Adds `--config FILE` and a flag for each named config option (all of them when `keys` is
 * omitted), generated from the schema: flag `--kebab-name`, the schema's description and default.
 * Every command takes --data-dir, --config and --log-level.
 */
export function withConfigOptions(command: Command, keys: readonly ConfigKey[] = CONFIG_KEYS): Command {
  command.option('--config <file>', 'JSON config file (defaults <- file <- ONRECO_GATEWAY_* environment <- flags)');
  for (const key of new Set<ConfigKey>(['dataDir', 'logLevel', ...keys])) {
    const fallback = CONFIG_DEFAULTS[key];
    const help = describeOption(key) + (fallback !== undefined && typeof fallback !== 'boolean' ? ` [default: ${fallback}]` : '');
    command.option(typeof fallback === 'boolean' ? flagName(key) : `${flagName(key)} <value>`, help);
  }
  return command;
}

/** The command's config: its flags (those that are config options) over env over file over defaults. */
export function commandConfig(ctx: CliContext, opts: Record<string, unknown>): GatewayConfig {
  const flags: Record<string, unknown> = {};
  for (const key of CONFIG_KEYS) if (opts[key] !== undefined) flags[key] = opts[key];
  try {
    return loadConfig({ file: opts.config as string | undefined, env: ctx.env, flags });
  } catch (e) {
    if (e instanceof ConfigError) throw new UsageError(e.message);
    throw e;
  }
}

export function commandLogger(ctx: CliContext, config: GatewayConfig): Logger {
  return createLogger(config.logLevel, ctx.logDestination ?? 2);
}

/** Runs an action; a UsageError (or any error) becomes one line on stderr and exit code 1. */
export function action<A extends unknown[]>(ctx: CliContext, fn: (...args: A) => Promise<void>) {
  return async (...args: A) => {
    try {
      await fn(...args);
    } catch (e) {
      ctx.stderr(`onreco-gateway: ${(e as Error).message}\n`);
      ctx.exitCode = 1;
    }
  };
}
