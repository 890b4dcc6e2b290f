// The `onreco-gateway` command: assembles one command per file (shadcn's commander layout).
import { Command, CommanderError } from 'commander';
import type { CliContext } from './commands/common';
import { decodeCommand } from './commands/decode';
import { pairCommand } from './commands/pair';
import { runCommand } from './commands/run';
import { scanCommand } from './commands/scan';
import { statusCommand } from './commands/status';

export type { CliContext } from './commands/common';

export function buildProgram(ctx: CliContext): Command {
  const program = new Command('onreco-gateway')
    .description('On-Reco in-store gateway: BLE temperature sensors -> one reading per sensor per interval -> the console')
    .showHelpAfterError()
    .configureOutput({ writeOut: ctx.stdout, writeErr: ctx.stderr })
    .exitOverride();
  for (const command of [pairCommand, runCommand, statusCommand, scanCommand, decodeCommand]) {
    program.addCommand(command(ctx).exitOverride().configureOutput({ writeOut: ctx.stdout, writeErr: ctx.stderr }));
  }
  return program;
}

/** Parses and runs; resolves with the exit code (commander's own errors included). */
export async function runCli(argv: string[], ctx: CliContext): Promise<number> {
  try {
    await buildProgram(ctx).parseAsync(argv, { from: 'user' });
    return ctx.exitCode;
  } catch (e) {
    if (e instanceof CommanderError) return e.exitCode === 0 ? 0 : e.exitCode || 1;
    throw e;
  }
}
