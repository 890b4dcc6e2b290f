import { Command } from 'commander';
import { CONFIG_KEYS, ConfigError, loadConfig, type GatewayConfig } from '../config';
import { createLogger, type Logger } from '../log';

/** What a command may touch of the outside world; tests pass their own. */
export interface CliContext {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  env: NodeJS.ProcessEnv;
  /** Resolves when the process is asked to stop (SIGINT/SIGTERM); main.ts wires it. */
  waitForStop: () => Promise<string>;
  /** Where logs go (fd or stream); stderr by default. */
  logDestination?: NodeJS.WritableStream | number;
  exitCode: number;
}

/** A failure the user can act on: printed as one line, exit 1. */
export class UsageError extends Error {}

export function withCommonOptions(command: Command): Command {
  return command
    .option('--data-dir <dir>', 'data directory (token, sensor list, buffer, status) [default: /var/lib/onreco-gateway]')
    .option('--config <file>', 'JSON config file (defaults <- file <- ONRECO_GATEWAY_* environment <- flags)')
    .option('--log-level <level>', 'fatal, error, warn, info, debug, trace or silent [default: info]');
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
