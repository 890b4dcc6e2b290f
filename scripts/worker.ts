// The worker process: the time-driven jobs, each on its own schedule (node-cron). The argument
// names the lane (app/jobs/worker.server.ts WORKER_LANES): all (default), alerts or reports.
import { WORKER_NODE_FLAGS } from '../app/jobs/worker-flags';
import { isWorkerLane, startWorker, WORKER_LANES } from '../app/jobs/worker.server';
import { logger } from '../app/services/logger.server';

const lane = process.argv[2] ?? 'all';
if (!isWorkerLane(lane)) {
  console.error(`worker: unknown lane "${lane}" (${Object.keys(WORKER_LANES).join(', ')})`);
  process.exit(2);
}
const missing = WORKER_NODE_FLAGS[lane].filter((flag) => !process.execArgv.includes(flag));
if (missing.length > 0) logger.warn({ lane, missing }, 'the worker runs without its lane\'s node flags: start it as `node <flags> --import tsx scripts/worker.ts` (app/jobs/worker-flags.ts)');
const worker = startWorker(WORKER_LANES[lane], undefined, lane);
const stop = async () => {
  await worker.stop();
  process.exit(0);
};
process.on('SIGINT', () => void stop());
process.on('SIGTERM', () => void stop());
