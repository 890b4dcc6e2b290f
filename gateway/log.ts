// One pino logger per process; modules take `logger.child({ module })`.
// Logs go to stderr so that the commands' own output (status --json, scan, decode) stays clean
// on stdout; under systemd both end up in the journal.
import { pino, type Logger } from 'pino';

export type { Logger };

export function createLogger(level: string, destination: NodeJS.WritableStream | number = 2): Logger {
  const stream = typeof destination === 'number' ? pino.destination({ dest: destination, sync: true }) : destination;
  return pino({ level, base: { app: 'onreco-gateway' }, timestamp: pino.stdTimeFunctions.isoTime }, stream);
}

/** A logger that drops everything (tests, one-shot commands that print their own output). */
export const silentLogger = (): Logger => pino({ level: 'silent' });

export function flushLogger(logger: Logger): Promise<void> {
  return new Promise((resolve) => {
    try {
      logger.flush((err) => {
        void err;
        resolve();
      });
    } catch {
      resolve();
    }
  });
}
