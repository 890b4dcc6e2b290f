import cluster, { type Worker } from 'node:cluster';
import { randomBytes } from 'node:crypto';
import type { Logger } from 'pino';

/** Ctrl-C reaches every process of the group; a web process not stopping by itself after this is told. */
const SIGINT_GRACE_MS = 5000;

/**
 * `WEB_CONCURRENCY` web processes on one port (docs/decisions/184-several-processes.md): this
 * process (node:cluster's primary) accepts the connections and hands them round-robin to its
 * forks, which run scripts/server.ts's web server. A fork that dies is replaced; one that dies
 * before it listened stops them all (a bad port or build would only die again). On SIGTERM each
 * fork is told and finishes its requests; this process ends when the last one has.
 */
export function superviseWebProcesses(count: number, log: Logger): void {
  // Sessions are signed with SESSION_SECRET: without a configured one each process would make its
  // own, and a sign-in at one process would be unknown at the next.
  process.env.SESSION_SECRET ??= randomBytes(32).toString('hex');
  const alive = new Set<Worker>();
  const told = new Set<Worker>();
  let stopping = false;
  let exitCode = 0;

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
  const fork = () => {
    const worker = cluster.fork();
    alive.add(worker);
    let listening = false;
    worker.once('listening', () => (listening = true));
    worker.once('exit', (code, signal) => {
      alive.delete(worker);
      if (stopping) {
        if (alive.size === 0) process.exit(exitCode);
      } else if (!listening) {
        log.fatal({ pid: worker.process.pid, code, signal }, 'a web process stopped before it listened; stopping the others');
        stop('SIGTERM', code || 1);
        if (alive.size === 0) process.exit(exitCode);
      } else {
        log.error({ pid: worker.process.pid, code, signal }, 'a web process stopped; starting another');
        fork();
      }
    });
  };

  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));
  for (let i = 0; i < count; i++) fork();
}
