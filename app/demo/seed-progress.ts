import type { SeedProgress } from './seed.server';

const STEP_LABELS: Record<Exclude<SeedProgress['step'], 'readings'>, string> = {
  chain: 'stores, sensors, users and alerts',
  history: 'settings history, reports, HACCP sign-offs and gateway health',
};

/**
 * Turns a seed's progress into lines a person watching `npm start` can read: the readings' share
 * with the time left at the pace so far (at most one line per `everyMs`, and the last one), then
 * each later step. One owner for `npm start` and `onreco db seed`.
 */
export function seedProgressLines(tell: (line: string) => void, options: { everyMs?: number; now?: () => number } = {}): (progress: SeedProgress) => void {
  const now = options.now ?? Date.now;
  const everyMs = options.everyMs ?? 5000;
  let started: number | undefined;
  let toldAt = -Infinity;
  return (progress) => {
    if (progress.step !== 'readings') return tell(`demo chain: ${STEP_LABELS[progress.step]}`);
    const at = now();
    started ??= at;
    const finished = progress.done >= progress.total;
    if (progress.done > 0 && !finished && at - toldAt < everyMs) return;
    toldAt = at;
    const share = progress.total === 0 ? 100 : Math.floor((progress.done / progress.total) * 100);
    const elapsed = at - started;
    const left = progress.done > 0 && !finished ? `, about ${formatSeconds((elapsed / progress.done) * (progress.total - progress.done))} left` : '';
    tell(`demo chain: readings ${share} % of ${(progress.total / 1e6).toFixed(1)} million${finished ? ` in ${formatSeconds(elapsed)}` : left}`);
  };
}

function formatSeconds(ms: number): string {
  const seconds = Math.max(1, Math.round(ms / 1000));
  return seconds < 120 ? `${seconds} s` : `${Math.round(seconds / 60)} min`;
}
