// Entry point: parses the command line and wires the process's signals to the command
// (the daemon's controller, or a scan). Nothing else lives here.
import { runCli, type CliContext } from './cli';

const stopRequested = new Promise<string>((resolve) => {
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => resolve(signal));
});

// `onreco-gateway scan | head`: a closed pipe ends the command quietly.
process.stdout.on('error', (e: NodeJS.ErrnoException) => {
  if (e.code === 'EPIPE') process.exit(ctx.exitCode);
  throw e;
});

const ctx: CliContext = {
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
  env: process.env,
  waitForStop: () => stopRequested,
  exitCode: 0,
};

process.exitCode = await runCli(process.argv.slice(2), ctx);
// Pending handles (a scan's D-Bus session, an aborted request) must not keep a finished command
// alive; let stdout drain first.
await new Promise<void>((resolve) => process.stdout.write('', () => resolve()));
process.exit();
