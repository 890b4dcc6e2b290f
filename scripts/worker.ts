// The worker process: the time-driven jobs, each on its own schedule (node-cron).
import { startWorker } from '../app/jobs/worker.server';

const worker = startWorker();
const stop = async () => {
  await worker.stop();
  process.exit(0);
};
process.on('SIGINT', () => void stop());
process.on('SIGTERM', () => void stop());
