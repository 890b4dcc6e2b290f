import { describe, expect, it } from 'vitest';
import { firstWaveSize, offeredTo, planRollout } from '~/domain/gateway-rollout';

const gateways = (states: [string, string | null, boolean?, boolean?][]) =>
  states.map(([storeId, runningVersion, failed, uploadedSince]) => ({ storeId, runningVersion, failed: failed ?? false, uploadedSince: uploadedSince ?? true }));

describe('a rollout in two waves', () => {
  it('puts at least one box and never the whole group in the first wave below 100 %', () => {
    expect([firstWaveSize(0, 10), firstWaveSize(3, 10), firstWaveSize(3, 30), firstWaveSize(3, 50), firstWaveSize(20, 10), firstWaveSize(1, 10), firstWaveSize(5, 100)]).toEqual([0, 1, 1, 2, 2, 1, 5]);
  });

  it('offers the version to the first wave, and to the rest once every box of it runs the version', () => {
    const rollout = { version: '0.3.0', wavePercent: 30, paused: false };
    const before = planRollout(rollout, gateways([['S3', '0.2.0'], ['S1', '0.2.0'], ['S2', '0.2.0']]));
    expect(['S1', 'S2', 'S3'].map((s) => offeredTo(before, s))).toEqual([true, false, false]);
    // Started on it, but no upload since: not yet.
    const started = planRollout(rollout, gateways([['S3', '0.2.0'], ['S1', '0.3.0', false, false], ['S2', '0.2.0']]));
    expect(['S1', 'S2', 'S3'].map((s) => offeredTo(started, s))).toEqual([true, false, false]);
    const after = planRollout(rollout, gateways([['S3', '0.2.0'], ['S1', '0.3.0'], ['S2', '0.2.0']]));
    expect(['S1', 'S2', 'S3'].map((s) => offeredTo(after, s))).toEqual([true, true, true]);
    expect(after.waves.map((w) => [w.updated, w.pending, w.failed, w.open])).toEqual([[1, 0, 0, true], [0, 2, 0, true]]);
  });

  it('keeps the second wave closed after a failure in the first, and never offers a box the version it rolled back from', () => {
    const plan = planRollout({ version: '0.4.0', wavePercent: 30, paused: false }, gateways([['S1', '0.3.0', true], ['S2', '0.3.0'], ['S3', '0.3.0']]));
    expect(['S1', 'S2', 'S3'].map((s) => offeredTo(plan, s))).toEqual([false, false, false]);
    expect(plan.waves.map((w) => [w.updated, w.pending, w.failed, w.open])).toEqual([[0, 0, 1, true], [0, 2, 0, false]]);
  });

  it('offers nothing while paused', () => {
    const plan = planRollout({ version: '0.3.0', wavePercent: 100, paused: true }, gateways([['S1', '0.2.0']]));
    expect(offeredTo(plan, 'S1')).toBe(false);
  });
});
