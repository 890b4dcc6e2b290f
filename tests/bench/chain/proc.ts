import { readdirSync, readFileSync } from 'node:fs';

// CPU and memory of a process and everything below it, read from /proc (Linux): the web
// server's node and its tsx/esbuild helpers, the worker, PostgreSQL's postmaster and backends.

const TICKS_PER_SECOND = 100; // USER_HZ on Linux

interface ProcStat {
  ppid: number;
  /** CPU seconds of the process, and of its children it has waited for (ended backends). */
  cpu: number;
  waitedCpu: number;
}

function stat(pid: number): ProcStat | null {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command, which may hold spaces: state is field 3.
    const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
    const field = (n: number) => Number(fields[n - 3]);
    return { ppid: field(4), cpu: (field(14) + field(15)) / TICKS_PER_SECOND, waitedCpu: (field(16) + field(17)) / TICKS_PER_SECOND };
  } catch {
    return null;
  }
}

/** Resident memory of a process from /proc/<pid>/status, in KiB: private (anon) and shared memory. */
function memory(pid: number): { anon: number; shmem: number } {
  try {
    const text = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kib = (name: string) => Number(new RegExp(`^${name}:\\s+(\\d+)`, 'm').exec(text)?.[1] ?? 0);
    return { anon: kib('RssAnon') + kib('RssFile'), shmem: kib('RssShmem') };
  } catch {
    return { anon: 0, shmem: 0 };
  }
}

/** `root` and its descendants that are alive now. */
export function processTree(root: number): number[] {
  const parents = new Map<number, number>();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    const s = stat(Number(name));
    if (s) parents.set(Number(name), s.ppid);
  }
  const tree = [root];
  for (let i = 0; i < tree.length; i += 1) for (const [pid, ppid] of parents) if (ppid === tree[i]) tree.push(pid);
  return tree.filter((pid) => parents.has(pid));
}

export interface TreeSample {
  cpuSeconds: number;
  /** Private memory summed over the tree, plus the largest shared mapping once (PostgreSQL's shared buffers). */
  rssMiB: number;
  processes: number;
}

/** CPU seconds so far (the root's waited-for children included) and resident memory of the tree of `root`. */
export function sampleTree(root: number): TreeSample {
  const pids = processTree(root);
  let cpu = stat(root)?.waitedCpu ?? 0;
  let anon = 0;
  let shmem = 0;
  for (const pid of pids) {
    cpu += stat(pid)?.cpu ?? 0;
    const m = memory(pid);
    anon += m.anon;
    shmem = Math.max(shmem, m.shmem);
  }
  return { cpuSeconds: cpu, rssMiB: Math.round((anon + shmem) / 1024), processes: pids.length };
}

/** The parent of a process (PostgreSQL's postmaster is the parent of a backend). */
export function parentOf(pid: number): number {
  const s = stat(pid);
  if (!s) throw new Error(`no process ${pid}`);
  return s.ppid;
}
