import { describe, expect, it } from 'vitest';
import { seedProgressLines } from '~/demo/seed-progress';

describe('the demo seed\'s progress lines', () => {
  it('tell the readings\' share with the time left at the pace so far, at most every 5 s, then each step', () => {
    const lines: string[] = [];
    let clock = 1000;
    const progress = seedProgressLines((line) => lines.push(line), { now: () => clock });
    progress({ step: 'readings', done: 0, total: 6_000_000 });
    clock += 3000;
    progress({ step: 'readings', done: 1_000_000, total: 6_000_000 });
    clock += 3000;
    progress({ step: 'readings', done: 2_000_000, total: 6_000_000 });
    clock += 6000;
    progress({ step: 'readings', done: 6_000_000, total: 6_000_000 });
    progress({ step: 'chain' });
    progress({ step: 'history' });
    expect(lines).toEqual([
      'demo chain: readings 0 % of 6.0 million',
      'demo chain: readings 33 % of 6.0 million, about 12 s left',
      'demo chain: readings 100 % of 6.0 million in 12 s',
      'demo chain: stores, sensors, users and alerts',
      'demo chain: settings history, reports, HACCP sign-offs and gateway health',
    ]);
  });
});
