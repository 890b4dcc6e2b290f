import { Command } from 'commander';
import { Controller } from '../controller';
import { flushLogger } from '../log';
import { action, commandConfig, commandLogger, withCommonOptions, type CliContext } from './common';

export function runCommand(ctx: CliContext): Command {
  return withCommonOptions(new Command('run'))
    .description('the daemon: listen, aggregate one reading per sensor per interval, buffer on disk, upload')
    .option('--source <source>', 'bluez (default), simulate, or replay:FILE (a capture, played as fast as possible)')
    .option('--exit-when-drained', 'replay: finish the file, upload everything, exit 0 once the buffer is empty')
    .option('--server <url>', 'console base URL (overrides the one saved by pair)')
    .option('--simulate-speed <n>', 'simulate: simulated seconds per real second [default: 1]')
    .action(
      action(ctx, async (opts: Record<string, unknown>) => {
        const config = commandConfig(ctx, opts);
        const logger = commandLogger(ctx, config);
        const controller = new Controller(config, logger);
        void ctx.waitForStop().then((reason) => controller.requestStop(reason));
        ctx.exitCode = await controller.run();
        logger.info({ exitCode: ctx.exitCode }, 'stopped');
        await flushLogger(logger);
      }),
    );
}
