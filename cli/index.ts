// The `onreco` command: assembles one command group per file (shadcn's commander layout, as
// gateway/cli.ts does). Everything but `db` goes through the /on-reco API, so the server's access
// rules apply to the CLI exactly as to the console.
import { Command, CommanderError } from 'commander';
import { version } from '../package.json';
import { alertStopsCommand } from './commands/alert-stops';
import { alertsCommand } from './commands/alerts';
import { completionCommand } from './commands/completion';
import { dbCommand } from './commands/db';
import { gatewaysCommand, pinsCommand } from './commands/gateways';
import { noticesCommand } from './commands/notices';
import { loginCommand, logoutCommand, whoamiCommand } from './commands/session';
import { reportsCommand } from './commands/reports';
import { sensorsCommand } from './commands/sensors';
import { storesCommand } from './commands/stores';
import { usergroupsCommand, usersCommand } from './commands/users';
import type { CliContext } from './context';
import { CliError, errorLines } from './errors';

export type { CliContext } from './context';

const GROUPS = [loginCommand, logoutCommand, whoamiCommand, storesCommand, pinsCommand, gatewaysCommand, alertsCommand, noticesCommand, dbCommand, sensorsCommand, usersCommand, usergroupsCommand, alertStopsCommand, reportsCommand];

/** Commander's own output and exits go through the context, on every level. */
function wire(command: Command, ctx: CliContext): Command {
  command.exitOverride().configureOutput({ writeOut: ctx.stdout, writeErr: ctx.stderr }).showHelpAfterError('(add --help for usage)');
  for (const sub of command.commands) wire(sub, ctx);
  return command;
}

export function buildProgram(ctx: CliContext): Command {
  const program: Command = new Command('onreco')
    .description('On-Reco from the command line: stores, sensors, gateways, alerts, reports and users of your chain, through the console\'s API')
    .version(version, '-V, --version', 'the version of this onreco')
    .addHelpText('after', '\nSign in first: onreco login --server https://console.example.jp\nONRECO_SERVER and ONRECO_TOKEN override the saved session.\n');
  for (const group of GROUPS) program.addCommand(group(ctx));
  program.addCommand(completionCommand(ctx, () => program));
  return wire(program, ctx);
}

/**
 * Parses and runs; resolves with the exit code: 0 done, 1 the command failed (one line and the
 * field errors on stderr), 2 the command line is wrong. Never throws, never prints a stack.
 */
export async function runCli(argv: string[], ctx: CliContext): Promise<number> {
  try {
    await buildProgram(ctx).parseAsync(argv, { from: 'user' });
    return ctx.exitCode;
  } catch (error) {
    if (error instanceof CommanderError) {
      if (error.code === 'commander.helpDisplayed' || error.code === 'commander.version') return 0;
      // Commander has printed what is wrong (a group without its subcommand prints its help): a usage error.
      return error.exitCode === 0 ? 0 : 2;
    }
    if (error instanceof CliError) {
      ctx.stderr(errorLines(error));
      return error.exitCode;
    }
    ctx.stderr(`onreco: unexpected failure: ${(error as Error).message ?? String(error)}\n`);
    return 1;
  }
}
