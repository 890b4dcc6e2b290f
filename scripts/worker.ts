// The worker process: the time-driven jobs, each on its own schedule (node-cron). The argument
// names the lane (app/jobs/worker.server.ts WORKER_LANES): all (default), alerts or reports.
import { isWorkerLane, startWorker, WORKER_LANES } from '../app/jobs/worker.server';

const lane = process.argv[2] ?? 'all';
if (!isWorkerLane(lane)) {
  console.error(`worker: unknown lane "${lane}" (${Object.keys(WORKER_LANES).join(', ')})`);
  process.exit(2);
}
const worker = startWorker(WORKER_LANES[lane]);
const stop = async () => {
  await worker.stop();
  process.exit(0);
};
process.on('SIGINT', () => void stop());
process.on('SIGTERM', () => void stop());
