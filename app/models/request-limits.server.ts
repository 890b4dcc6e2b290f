import { RateLimiterPostgres, RateLimiterRes } from 'rate-limiter-flexible';
import { type Db, poolOf } from '~/db/db.server';

// Counters shared by every web process (table request_limits, rate-limiter-flexible's layout):
// failed sign-ins, passcode mails, pairing attempts. Each policy counts points per key over a
// window; a key that has used them up is blocked until its window ends.

export interface LimitPolicy {
  name: string;
  points: number;
  windowSeconds: number;
}

/** Who asks, as far as the limits go: the client's address as the web server saw it. */
export interface ClientOrigin {
  /** 'unknown' when there is none (in-process calls). */
  address: string;
}

export type LimitState = { blocked: false } | { blocked: true; retryAfterSeconds: number };

const limiters = new WeakMap<Db, Map<string, RateLimiterPostgres>>();

function limiterOf(db: Db, policy: LimitPolicy): RateLimiterPostgres {
  let byPolicy = limiters.get(db);
  if (!byPolicy) limiters.set(db, (byPolicy = new Map()));
  let limiter = byPolicy.get(policy.name);
  if (!limiter) {
    limiter = new RateLimiterPostgres({
      storeClient: poolOf(db),
      storeType: 'pool',
      tableName: 'request_limits',
      tableCreated: true, // by the migration
      clearExpiredByTimeout: false, // the worker's job does it
      keyPrefix: policy.name,
      points: policy.points,
      duration: policy.windowSeconds,
    });
    byPolicy.set(policy.name, limiter);
  }
  return limiter;
}

const retryAfter = (msBeforeNext: number) => Math.max(1, Math.ceil(msBeforeNext / 1000));

/** Whether `key` has used up the policy's points in its current window (nothing is counted). */
export async function limitState(db: Db, policy: LimitPolicy, key: string): Promise<LimitState> {
  const used = await limiterOf(db, policy).get(key);
  if (!used || used.consumedPoints < policy.points) return { blocked: false };
  return { blocked: true, retryAfterSeconds: retryAfter(used.msBeforeNext) };
}

/** Counts one point against `key`; says whether it is now over the policy. */
export async function countAgainst(db: Db, policy: LimitPolicy, key: string): Promise<LimitState> {
  try {
    await limiterOf(db, policy).consume(key);
    return { blocked: false };
  } catch (outcome) {
    if (outcome instanceof RateLimiterRes) return { blocked: true, retryAfterSeconds: retryAfter(outcome.msBeforeNext) };
    throw outcome;
  }
}

/** A counter: a policy and the key it counts for (an address, an account, a pair). */
export type LimitKey = readonly [LimitPolicy, string];

/** The longest wait among the keys that used up their points (seconds), or null when none did. */
export async function longestWait(db: Db, keys: readonly LimitKey[]): Promise<number | null> {
  const states = await Promise.all(keys.map(([policy, key]) => limitState(db, policy, key)));
  const waits = states.flatMap((state) => (state.blocked ? [state.retryAfterSeconds] : []));
  return waits.length > 0 ? Math.max(...waits) : null;
}

/** Counts one point against each key (a failure). */
export async function countAgainstEach(db: Db, keys: readonly LimitKey[]): Promise<void> {
  await Promise.all(keys.map(([policy, key]) => countAgainst(db, policy, key)));
}

export async function clearLimit(db: Db, policy: LimitPolicy, key: string): Promise<void> {
  await limiterOf(db, policy).delete(key);
}

/** Removes counters whose window ended (the worker, hourly). */
export async function deleteExpiredLimits(db: Db, now: Date): Promise<void> {
  await db.deleteFrom('request_limits').where('expire', '<', now.getTime()).execute();
}
