import { cpus, loadavg } from 'node:os';

// A test's wall-clock bound holds on a machine of its own. Beside the rest of the suite (two
// cores shared by three projects and the engineers' own runs) it grows with the load beyond 2 per
// core, and the message says the load it was judged at. The figures themselves are measured by
// the benches on a quiet machine.

/** `ms`, or more when the one-minute load average is past 2 per core. */
export function loadScaledBound(ms: number): number {
  return Math.round(ms * Math.max(1, loadavg()[0] / cpus().length / 2));
}

/** "(bound N ms, load average L)" for an assertion's message. */
export function boundNote(bound: number): string {
  return `(bound ${bound} ms, load average ${loadavg()[0].toFixed(1)})`;
}
