import { Command } from 'commander';
import { DataDir } from '../state';
import { collectStatus, formatStatus } from '../status';
import { action, commandConfig, withConfigOptions, type CliContext } from './common';

export function statusCommand(ctx: CliContext): Command {
  return withConfigOptions(new Command('status'), ['bufferMaxRows'])
    .description('paired store, sensors heard, buffer depth and oldest reading, last upload and its result')
    .option('--json', 'print the report as JSON')
    .action(
      action(ctx, async (opts: Record<string, unknown>) => {
        const config = commandConfig(ctx, opts);
        const report = collectStatus(new DataDir(config.dataDir), config.bufferMaxRows);
        ctx.stdout(opts.json ? JSON.stringify(report, null, 2) + '\n' : formatStatus(report) + '\n');
      }),
    );
}
