import { readFileSync, readdirSync } from 'node:fs';

// CPU seconds of other processes (the web server, PostgreSQL) from /proc, for benches on a loaded
// machine where wall time is not the work done. Linux only.

const TICKS_PER_SECOND = 100; // USER_HZ on Linux

function stat(pid: number): { ppid: number; ticks: number } | null {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name (field 2) may hold spaces: the fields after it start past its ')'.
    const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
    return { ppid: Number(fields[1]), ticks: Number(fields[11]) + Number(fields[12]) };
  } catch {
    return null; // gone
  }
}

/** The parent of a process (a PostgreSQL backend's is the postmaster). */
export function parentOf(pid: number): number {
  const s = stat(pid);
  if (!s) throw new Error(`no process ${pid}`);
  return s.ppid;
}

/** CPU seconds one process has used so far. */
export function cpuSecondsOf(pid: number): number {
  return (stat(pid)?.ticks ?? 0) / TICKS_PER_SECOND;
}

/**
 * CPU seconds a process and its children (a PostgreSQL postmaster and its backends) use from now
 * on: samples the children every 250 ms, so a backend that ends between two samples loses at most
 * its last quarter second.
 */
export function trackProcessTreeCpu(rootPid: number): { stop(): number } {
  const start = new Map<number, number>();
  const last = new Map<number, number>();
  // Processes there at the first sample count from their ticks then; later ones from zero.
  let first = true;
  const sample = () => {
    for (const name of readdirSync('/proc')) {
      if (!/^\d+$/.test(name)) continue;
      const pid = Number(name);
      const s = stat(pid);
      if (!s || (pid !== rootPid && s.ppid !== rootPid)) continue;
      if (!start.has(pid)) start.set(pid, first ? s.ticks : 0);
      last.set(pid, s.ticks);
    }
    first = false;
  };
  sample();
  const timer = setInterval(sample, 250);
  return {
    stop() {
      clearInterval(timer);
      sample();
      let ticks = 0;
      for (const [pid, end] of last) ticks += end - (start.get(pid) ?? 0);
      return ticks / TICKS_PER_SECOND;
    },
  };
}
