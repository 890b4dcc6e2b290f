// The supervisor npm start runs its processes under (app/services/process-supervisor.server.ts),
// on real child processes: a dead one comes back after its backoff while the others run on, its
// exit code and signal are logged, and only stop() ends them all.
import { spawn } from 'node:child_process';
import pino from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { type Backoff, restartDelay, type Supervisor, superviseChildren } from '~/services/process-supervisor.server';

const FAST: Backoff = { initialMs: 50, maxMs: 400, healthyAfterMs: 1000, giveUpAfter: 4 };

/** A child that lives until it is told to stop (or, with `exitCode`, exits at once with it). */
const sleeper = (name: string, exitCode?: number) => ({
  name,
  start: () => spawn(process.execPath, ['-e', exitCode === undefined ? 'setInterval(() => {}, 1000); process.on("SIGTERM", () => process.exit(0))' : `process.exit(${exitCode})`], { stdio: 'ignore' }),
});

function capturingLog() {
  const lines: Record<string, unknown>[] = [];
  const log = pino({ level: 'trace' }, { write: (line: string) => lines.push(JSON.parse(line) as Record<string, unknown>) });
  return { log, lines };
}

let supervisor: Supervisor | undefined;
afterEach(async () => {
  await supervisor?.stop();
  supervisor = undefined;
});

const pidsOf = (s: Supervisor) => s.running().map((child) => child.pid);

describe('process supervisor', () => {
  it('doubles the delay for each quick death in a row, up to the maximum', () => {
    expect([1, 2, 3, 4, 5].map((deaths) => restartDelay(FAST, deaths))).toEqual([50, 100, 200, 400, 400]);
  });

  it('restarts a child killed with SIGKILL, logging its signal, while the other keeps its process', async () => {
    const { log, lines } = capturingLog();
    supervisor = superviseChildren([sleeper('web'), sleeper('worker:alerts')], log, FAST);
    const [web, worker] = supervisor.running();
    worker.kill('SIGKILL');
    await expect.poll(() => supervisor!.restarts()['worker:alerts'], { timeout: 5000 }).toBe(1);
    await expect.poll(() => supervisor!.running().length).toBe(2);
    expect(pidsOf(supervisor)).toContain(web.pid);
    expect(pidsOf(supervisor)).not.toContain(worker.pid);
    const died = lines.find((line) => line.msg === 'a process stopped; restarting it');
    expect(died).toMatchObject({ child: 'worker:alerts', pid: worker.pid, code: null, signal: 'SIGKILL', restartInMs: 50 });
  });

  it('logs the exit code of a child that exits by itself, and stops the rest when it dies on every restart', async () => {
    const { log, lines } = capturingLog();
    supervisor = superviseChildren([sleeper('web'), sleeper('worker:reports', 3)], log, FAST);
    const web = supervisor.running().find((child) => child.spawnargs.join(' ').includes('setInterval'))!;
    const webExit = new Promise((resolve) => web.once('exit', (code, signal) => resolve(signal ?? code)));
    expect(await supervisor.gaveUp).toBe(3);
    expect(await webExit).toBe(0);
    const delays = lines.filter((line) => line.msg === 'a process stopped; restarting it').map((line) => [line.code, line.restartInMs]);
    expect(delays).toEqual([[3, 50], [3, 100], [3, 200], [3, 400]]);
    expect(lines.at(-1)).toMatchObject({ msg: 'a process died again right after each restart; stopping the console', child: 'worker:reports' });
  });

  it('does not restart a child the console runs on without', async () => {
    const { log } = capturingLog();
    supervisor = superviseChildren([sleeper('web'), { ...sleeper('simulator'), restart: false }], log, FAST);
    const simulator = supervisor.running()[1];
    simulator.kill('SIGKILL');
    await expect.poll(() => supervisor!.running().length).toBe(1);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(supervisor.restarts()).toEqual({});
  });

  it('stop() ends every child and restarts none', async () => {
    const { log } = capturingLog();
    supervisor = superviseChildren([sleeper('web'), sleeper('worker:alerts')], log, FAST);
    const children = supervisor.running();
    await supervisor.stop();
    expect(children.map((child) => child.exitCode ?? child.signalCode)).toEqual([expect.anything(), expect.anything()]);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(supervisor.running()).toEqual([]);
    expect(supervisor.restarts()).toEqual({});
  });
});
