import { Command } from 'commander';
import { Controller } from '../controller';
import { flushLogger } from '../log';
import { action, commandConfig, commandLogger, withConfigOptions, type CliContext } from './common';

export function runCommand(ctx: CliContext): Command {
  return withConfigOptions(new Command('run'))
    .description('the daemon: listen, aggregate one reading per sensor per interval, buffer on disk, upload')
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
