import type { WorkerLane } from './worker.server';

// Node's flags for each worker lane's process (app/jobs/worker.server.ts WORKER_LANES), given by
// whoever starts one: scripts/start.ts, the tests' and benches' workers, and a worker started by
// hand (README). The reports lane renders month PDFs back to back, ~110 MB allocated and ~45 MB
// alive at a time each: left to itself, V8 lets a busy process's old generation grow to four times
// what survives it, and the worker's RSS went past 300 MB over a night. A young generation of 4 MB,
// a collector without helper threads (on two cores they wait on the database and the other lane
// more than they help) and an old generation let grow to 2.5 times what survives keep it near 270
// MB for about a tenth more CPU (docs/decisions/202). The other lanes keep V8's defaults: an alert
// mail's pauses stay short.
export const WORKER_NODE_FLAGS: Record<WorkerLane, readonly string[]> = {
  all: [],
  alerts: [],
  reports: ['--max-semi-space-size=4', '--single-threaded-gc', '--heap-growing-percent=150'],
};
