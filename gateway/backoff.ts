// Retry timing: exponential backoff with full jitter (AWS Architecture Blog, "Exponential
// Backoff And Jitter"): sleep = random(0, min(cap, base * 2^attempt)).

export interface BackoffPolicy {
  baseMs: number;
  maxMs: number;
}

/** Delay before retry number `attempt` (0 for the first retry). `random` returns [0, 1). */
export function fullJitterDelay(attempt: number, policy: BackoffPolicy, random: () => number = Math.random): number {
  const ceiling = Math.min(policy.maxMs, policy.baseMs * 2 ** Math.min(attempt, 30));
  return Math.floor(random() * ceiling);
}

/**
 * Milliseconds a `Retry-After` header asks to wait: delta-seconds or an HTTP-date.
 * Returns undefined when absent or unreadable; never negative.
 */
export function parseRetryAfter(header: string | null | undefined, nowMs: number): number | undefined {
  if (header == null) return undefined;
  const value = header.trim();
  if (/^\d+$/.test(value)) return Number(value) * 1000;
  if (!/^[A-Za-z]{3}, /.test(value)) return undefined; // IMF-fixdate: "Sun, 06 Nov 1994 08:49:37 GMT"
  const at = Date.parse(value);
  if (Number.isNaN(at)) return undefined;
  return Math.max(0, at - nowMs);
}

/** The wait before the next attempt: the jittered backoff, but never less than what the server asked. */
export function retryDelay(
  attempt: number,
  policy: BackoffPolicy,
  retryAfterMs: number | undefined,
  retryAfterMaxMs: number,
  random: () => number = Math.random,
): number {
  const jittered = fullJitterDelay(attempt, policy, random);
  if (retryAfterMs === undefined) return jittered;
  return Math.max(jittered, Math.min(retryAfterMs, retryAfterMaxMs));
}

/** Resolves after `ms`, or early (without throwing) when `signal` aborts. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal?.aborted) return resolve();
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    }
    signal?.addEventListener('abort', done, { once: true });
  });
}
