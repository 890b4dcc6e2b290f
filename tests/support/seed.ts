// Seeds of the randomized tests: fixed by default so that every run draws the same, printed so
// that a failure names its seed, and overridable with TEST_SEED=N to replay or explore others.

/** The seed of the randomized test `name`: TEST_SEED when set, else `fallback`; printed. */
export function testSeed(name: string, fallback: number): number {
  const fromEnv = process.env.TEST_SEED;
  const seed = fromEnv === undefined || fromEnv === '' ? fallback : Number(fromEnv);
  if (!Number.isSafeInteger(seed)) throw new Error(`TEST_SEED must be an integer, got ${JSON.stringify(fromEnv)}`);
  console.log(`[seed] ${name}: ${seed} (replay with TEST_SEED=${seed})`);
  return seed;
}

/** mulberry32: a small seeded generator of numbers in [0, 1), like Math.random. */
export function seededRandom(seed: number): () => number {
  let state = seed | 0;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
