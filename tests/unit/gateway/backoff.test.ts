import { describe, expect, it } from 'vitest';
import { fullJitterDelay, parseRetryAfter, retryDelay } from '../../../gateway/backoff';

const policy = { baseMs: 1000, maxMs: 60_000 };

describe('exponential backoff with full jitter', () => {
  it('draws between 0 and min(cap, base * 2^attempt)', () => {
    expect(fullJitterDelay(0, policy, () => 0.999)).toBe(999);
    expect(fullJitterDelay(3, policy, () => 0.5)).toBe(4000);
    expect(fullJitterDelay(3, policy, () => 0)).toBe(0);
    expect(fullJitterDelay(10, policy, () => 0.999)).toBe(59_940); // capped at 60 s
    expect(fullJitterDelay(5000, policy, () => 0.5)).toBe(30_000); // no overflow on long outages
  });

  it('spreads retries (full jitter, not a fixed schedule)', () => {
    const draws = Array.from({ length: 200 }, () => fullJitterDelay(4, policy));
    expect(Math.min(...draws)).toBeGreaterThanOrEqual(0);
    expect(Math.max(...draws)).toBeLessThan(16_000);
    expect(new Set(draws).size).toBeGreaterThan(100);
  });

  it('never retries sooner than Retry-After, up to a cap', () => {
    expect(retryDelay(0, policy, 5000, 3_600_000, () => 0.1)).toBe(5000);
    expect(retryDelay(5, policy, 5000, 3_600_000, () => 0.5)).toBe(16_000); // backoff already longer
    expect(retryDelay(0, policy, 24 * 3_600_000, 3_600_000, () => 0)).toBe(3_600_000);
  });
});

describe('Retry-After', () => {
  const now = Date.parse('2026-01-15T00:00:00Z');
  it('reads delta-seconds and HTTP dates', () => {
    expect(parseRetryAfter('120', now)).toBe(120_000);
    expect(parseRetryAfter(' 0 ', now)).toBe(0);
    expect(parseRetryAfter('Thu, 15 Jan 2026 00:00:30 GMT', now)).toBe(30_000);
    expect(parseRetryAfter('Wed, 14 Jan 2026 00:00:00 GMT', now)).toBe(0); // in the past
  });
  it('ignores what it cannot read', () => {
    expect(parseRetryAfter(null, now)).toBeUndefined();
    expect(parseRetryAfter('soon', now)).toBeUndefined();
    expect(parseRetryAfter('-5', now)).toBeUndefined();
  });
});
