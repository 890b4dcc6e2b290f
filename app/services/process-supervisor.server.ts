import type { ChildProcess } from 'node:child_process';
import type { Logger } from 'pino';

// The console's processes under one supervisor (`npm start`, scripts/start.ts; the tests start it
// the same way): a child that dies is started again after a backoff, and the others keep serving;
// only a stop signal stops them all (docs/decisions/210-supervision.md).

export interface SupervisedChild {
  /** For the log: `web`, `worker:alerts`, ... */
  name: string;
  start(): ChildProcess;
  /** false: a child the console runs on without (the demo simulator). */
  restart?: boolean;
}

export interface Backoff {
  /** The first restart's delay; each quick death in a row doubles it, up to maxMs. */
  initialMs: number;
  maxMs: number;
  /** A child that ran this long before it died was healthy: its next restart starts from initialMs again. */
  healthyAfterMs: number;
  /** This many quick deaths in a row (each before healthyAfterMs) stop the console: it would only die again. */
  giveUpAfter: number;
}

export const DEFAULT_BACKOFF: Backoff = { initialMs: 500, maxMs: 30_000, healthyAfterMs: 30_000, giveUpAfter: 8 };

/** The delay before the restart that follows `quickDeaths` deaths in a row (1 for the first). */
export function restartDelay(backoff: Backoff, quickDeaths: number): number {
  return Math.min(backoff.maxMs, backoff.initialMs * 2 ** Math.max(0, quickDeaths - 1));
}

/** After a stop signal, a child still running this long after it was told is killed. */
const FORCE_AFTER_MS = 10_000;
/** Ctrl-C reaches the whole process group: the children are stopping by themselves already. */
const SIGINT_GRACE_MS = 6000;

export interface Supervisor {
  /** The children's current processes (a restart replaces one). */
  running(): ChildProcess[];
  /** Restarts so far, by child name. */
  restarts(): Record<string, number>;
  /** Stops every child (SIGTERM, SIGKILL after 10 s); resolves once all have exited. */
  stop(signal?: NodeJS.Signals): Promise<void>;
  /** Resolves with a non-zero code when a child died too often in a row and the supervisor stopped the rest. */
  gaveUp: Promise<number>;
}

export function superviseChildren(children: readonly SupervisedChild[], log: Logger, backoff: Backoff = DEFAULT_BACKOFF): Supervisor {
  const current = new Map<SupervisedChild, ChildProcess>();
  const pending = new Set<NodeJS.Timeout>();
  const restartCount: Record<string, number> = {};
  let stopping: Promise<void> | undefined;
  let giveUp!: (code: number) => void;
  const gaveUp = new Promise<number>((resolve) => (giveUp = resolve));

  const alive = () => [...current.values()].filter((child) => child.exitCode === null && child.signalCode === null);

  const launch = (spec: SupervisedChild, quickDeaths: number) => {
    const child = spec.start();
    const startedAt = Date.now();
    current.set(spec, child);
    child.once('exit', (code, signal) => {
      if (stopping) return;
      const ranMs = Date.now() - startedAt;
      const deaths = ranMs >= backoff.healthyAfterMs ? 1 : quickDeaths + 1;
      if (spec.restart === false) {
        current.delete(spec);
        log.error({ child: spec.name, pid: child.pid, code, signal }, 'a process stopped; the console runs on without it');
        return;
      }
      if (deaths > backoff.giveUpAfter) {
        log.fatal({ child: spec.name, pid: child.pid, code, signal, deaths }, 'a process died again right after each restart; stopping the console');
        void stop('SIGTERM').then(() => giveUp(code || 1));
        return;
      }
      const delayMs = restartDelay(backoff, deaths);
      log.error({ child: spec.name, pid: child.pid, code, signal, ranMs, restartInMs: delayMs }, 'a process stopped; restarting it');
      const timer = setTimeout(() => {
        pending.delete(timer);
        if (stopping) return;
        restartCount[spec.name] = (restartCount[spec.name] ?? 0) + 1;
        launch(spec, deaths);
        log.warn({ child: spec.name, pid: current.get(spec)?.pid, restarts: restartCount[spec.name] }, 'process restarted');
      }, delayMs);
      pending.add(timer);
    });
  };

  const stop = (signal: NodeJS.Signals = 'SIGTERM'): Promise<void> => {
    stopping ??= (async () => {
      for (const timer of pending) clearTimeout(timer);
      pending.clear();
      const grace = signal === 'SIGINT' ? SIGINT_GRACE_MS : 0;
      const tell = setTimeout(() => alive().forEach((child) => child.kill('SIGTERM')), grace);
      const force = setTimeout(() => {
        for (const child of alive()) {
          log.warn({ pid: child.pid, command: child.spawnargs.join(' ') }, 'killed: it did not stop within 10 s');
          child.kill('SIGKILL');
        }
      }, grace + FORCE_AFTER_MS);
      await Promise.all(alive().map((child) => new Promise((done) => child.once('exit', done))));
      clearTimeout(tell);
      clearTimeout(force);
    })();
    return stopping;
  };

  for (const spec of children) launch(spec, 0);
  return { running: alive, restarts: () => ({ ...restartCount }), stop, gaveUp };
}
