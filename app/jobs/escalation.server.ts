import { runEscalations } from '~/services/escalation.server';
import type { Job } from './job.server';

/**
 * Escalation steps (docs/decisions/236-escalation.md): every 5 s, so a step fires well within
 * 30 s of its delay; the candidates are one indexed query over the open alerts. Caught up on start.
 */
export const escalationJob: Job = {
  name: 'escalation',
  schedule: '*/5 * * * * *',
  runOnStart: true,
  run: async ({ db, now, log }) => {
    await runEscalations(db, now, log);
  },
};
