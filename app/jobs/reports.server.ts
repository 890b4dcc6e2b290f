import type { Job } from './job.server';

// The report service brings pdfmake and the Japanese font: it loads when a report job first runs,
// so the alerts lane (which only schedules) starts in a fraction of the time.
const reportService = () => import('~/services/reports.server');

// Reports (docs/decisions/140-report-jobs.md, 143-regular-reports.md): every few seconds the
// worker makes the pending reports (durable jobs in report_history); every minute the regular
// schedule writes the jobs of the periods that closed (and, on the first run after a start, those
// missed while the worker was down: the schedule looks back, the unique key skips what exists).

export const reportJobsJob: Job = {
  name: 'report jobs',
  schedule: '*/2 * * * * *',
  runOnStart: true,
  queue: true,
  run: async ({ db, log }) => {
    const { makePendingReports } = await reportService();
    const made = await makePendingReports(db, log);
    if (made > 0) log.info({ made }, 'reports made');
  },
};

export const regularReportsJob: Job = {
  name: 'regular reports',
  schedule: '5 * * * * *',
  runOnStart: true,
  run: async ({ db, now, log }) => {
    const { scheduleRegularReports } = await reportService();
    const created = await scheduleRegularReports(db, now);
    if (created > 0) log.info({ created }, 'regular reports scheduled');
  },
};
