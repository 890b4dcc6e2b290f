import cluster, { type Worker } from 'node:cluster';
import { randomBytes } from 'node:crypto';
import type { Logger } from 'pino';
import { Counter, Registry } from 'prom-client';
import { answerClusterMetrics } from '~/services/metrics.server';

/** Ctrl-C reaches every process of the group; a web process not stopping by itself after this is told. */
const SIGINT_GRACE_MS = 5000;
/** SIGHUP would stop `npm start` (a closed terminal): the roll has a signal of its own. */
export const ROLLING_RESTART_SIGNAL = 'SIGUSR2';
/** A new web process not listening within this long ends the roll (the old ones keep serving). */
const ROLL_START_TIMEOUT_MS = 120_000;

/**
 * `WEB_CONCURRENCY` web processes on one port (docs/decisions/184-several-processes.md): this
 * process (node:cluster's primary) accepts the connections and hands them round-robin to its
 * forks, which run scripts/server.ts's web server. A fork that dies is replaced; one that dies
 * before it listened stops them all (a bad port or build would only die again). On SIGTERM each
 * fork is told and finishes its requests; this process ends when the last one has.
 *
 * On ROLLING_RESTART_SIGNAL (`systemctl reload onreco-web`) the forks are replaced one at a time:
 * a new one is started and listening before an old one is told to finish, so the port never stops
 * taking connections and new code on disk is served without a gap (docs/decisions/270-rolling-restart.md).
 * A new fork that dies before it listened ends the roll and leaves the old ones serving.
 */
export function superviseWebProcesses(count: number, log: Logger): void {
  // Sessions are signed with SESSION_SECRET: without a configured one each process would make its
  // own, and a sign-in at one process would be unknown at the next.
  process.env.SESSION_SECRET ??= randomBytes(32).toString('hex');
  const alive = new Set<Worker>();
  const told = new Set<Worker>();
  /** Old processes a roll told to finish: their exit is expected, not replaced. */
  const retiring = new Set<Worker>();
  let stopping = false;
  let rolling = false;
  let exitCode = 0;
  // /metrics: the web processes' counters summed here, with this process's restarts of them.
  const own = new Registry();
  const restarts = new Counter({ name: 'onreco_web_process_restarts_total', help: 'Web processes that died and were replaced by the web supervisor.', registers: [own] });
  const rolled = new Counter({ name: 'onreco_web_process_rolls_total', help: 'Web processes replaced by a rolling restart, by outcome.', labelNames: ['outcome'], registers: [own] });
  answerClusterMetrics(own);

  const tell = (worker: Worker) => {
    if (told.has(worker)) return;
    told.add(worker);
    worker.process.kill('SIGTERM');
  };
  const stop = (signal: NodeJS.Signals, code = 0) => {
    if (!stopping) log.info({ signal, processes: alive.size }, 'stopping the web processes');
    stopping = true;
    exitCode ||= code;
    if (signal === 'SIGINT') setTimeout(() => alive.forEach(tell), SIGINT_GRACE_MS).unref();
    else alive.forEach(tell);
  };
  /** A new web process; resolves true once it listens, false when it died first. */
  const fork = (byRoll = false): { worker: Worker; listening: Promise<boolean> } => {
    const worker = cluster.fork();
    alive.add(worker);
    let listened = false;
    const listening = new Promise<boolean>((resolve) => {
      worker.once('listening', () => {
        listened = true;
        resolve(true);
      });
      worker.once('exit', () => resolve(false));
    });
    worker.once('exit', (code, signal) => {
      alive.delete(worker);
      if (stopping) {
        if (alive.size === 0) process.exit(exitCode);
      } else if (retiring.delete(worker)) {
        log.info({ pid: worker.process.pid, code, signal }, 'an old web process finished its requests');
      } else if (!listened && byRoll) {
        log.fatal({ pid: worker.process.pid, code, signal }, 'a new web process stopped before it listened; the old ones keep serving');
      } else if (!listened) {
        log.fatal({ pid: worker.process.pid, code, signal }, 'a web process stopped before it listened; stopping the others');
        stop('SIGTERM', code || 1);
        if (alive.size === 0) process.exit(exitCode);
      } else {
        log.error({ pid: worker.process.pid, code, signal }, 'a web process stopped; starting another');
        restarts.inc();
        fork();
      }
    });
    return { worker, listening };
  };

  const roll = async () => {
    if (rolling || stopping) return;
    rolling = true;
    const old = [...alive];
    log.info({ processes: old.length }, 'rolling restart of the web processes');
    try {
      for (const worker of old) {
        if (stopping) return;
        // One that died meanwhile was replaced already, by a new process.
        if (worker.isDead()) continue;
        const next = fork(true);
        const timeout = new Promise<boolean>((resolve) => setTimeout(() => resolve(false), ROLL_START_TIMEOUT_MS).unref());
        if (!(await Promise.race([next.listening, timeout]))) {
          rolled.inc({ outcome: 'failed' });
          if (!next.worker.isDead()) next.worker.process.kill('SIGKILL');
          log.error({ replaced: old.indexOf(worker), of: old.length }, 'rolling restart ended: a new web process did not start');
          return;
        }
        rolled.inc({ outcome: 'replaced' });
        log.info({ old: worker.process.pid, new: next.worker.process.pid }, 'web process replaced');
        if (worker.isDead()) continue;
        retiring.add(worker);
        const finished = new Promise((resolve) => worker.once('exit', resolve));
        tell(worker);
        await finished;
      }
      log.info({ processes: alive.size }, 'rolling restart done');
    } finally {
      rolling = false;
    }
  };

  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));
  process.on(ROLLING_RESTART_SIGNAL, () => void roll());
  for (let i = 0; i < count; i++) fork();
}
