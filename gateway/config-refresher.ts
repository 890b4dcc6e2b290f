// Keeps the store's configuration (sensors, keys, sampling interval) current: the cached copy
// from the data dir at start, then GET /config on start and every configRefreshSeconds.
import { isDeepStrictEqual } from 'node:util';
import { ApiClient, describeFailure } from './api-client';
import { retryDelay, sleep, type BackoffPolicy } from './backoff';
import type { Credentials } from './credentials';
import type { Logger } from './log';
import { parseStoreConfig, type DataDir, type ParsedStoreConfig, type StoreConfig } from './state';

export interface ConfigRefresherOptions {
  dataDir: DataDir;
  credentials: Credentials;
  logger: Logger;
  refreshMs: number;
  requestTimeoutMs: number;
  backoff: BackoffPolicy;
  /** Called with each new configuration (also the cached one at start). */
  onConfig: (config: StoreConfig) => void;
}

export interface ConfigRefresherStatus {
  fetchedAt: string | null;
  lastAttemptAt: string | null;
  lastError: string | null;
  sensors: number;
  samplingIntervalSeconds: number | null;
}

export class ConfigRefresher {
  private stopController = new AbortController();
  private loop: Promise<void> | null = null;
  private body: unknown = undefined;
  private readonly state: ConfigRefresherStatus = {
    fetchedAt: null,
    lastAttemptAt: null,
    lastError: null,
    sensors: 0,
    samplingIntervalSeconds: null,
  };

  constructor(private readonly options: ConfigRefresherOptions) {}

  /** Applies the cached config; without one, waits for a first fetch (bounded by the request timeout). */
  async start(): Promise<void> {
    this.stopController = new AbortController();
    const { dataDir, logger } = this.options;
    this.options.credentials.reload();
    const cached = dataDir.readStoreConfig();
    if (cached) {
      this.body = cached.body;
      this.state.fetchedAt = cached.fetchedAt;
      this.apply(cached);
    } else {
      logger.warn('no cached store configuration: fetching it before listening');
      await this.refreshOnce();
    }
    this.loop = this.run(Boolean(cached));
  }

  async stop(): Promise<void> {
    this.stopController.abort();
    const loop = this.loop;
    this.loop = null;
    if (loop) await loop;
  }

  status(): ConfigRefresherStatus {
    return { ...this.state };
  }

  private async run(fetchFirst: boolean): Promise<void> {
    let failures = 0;
    let wait = fetchFirst ? 0 : this.options.refreshMs;
    while (!this.stopController.signal.aborted) {
      await sleep(wait, this.stopController.signal);
      if (this.stopController.signal.aborted) break;
      const ok = await this.refreshOnce();
      failures = ok ? 0 : failures + 1;
      wait = ok
        ? this.options.refreshMs
        : Math.min(this.options.refreshMs, Math.max(1000, retryDelay(failures - 1, this.options.backoff, undefined, 0)));
    }
  }

  /** One GET /config; true when it got a usable answer. */
  private async refreshOnce(): Promise<boolean> {
    const { credentials, logger, dataDir } = this.options;
    this.state.lastAttemptAt = new Date().toISOString();
    credentials.reload();
    const session = credentials.session();
    if (!session) {
      this.state.lastError = credentials.revoked ? 'gateway token revoked' : 'not paired';
      return false;
    }
    const client = new ApiClient({
      server: session.server,
      token: session.token,
      timeoutMs: this.options.requestTimeoutMs,
      signal: this.stopController.signal,
    });
    const result = await client.getConfig();
    if (!result.ok) {
      const failure = result.failure;
      this.state.lastError = describeFailure(failure);
      if (failure.kind === 'http' && (failure.status === 401 || failure.status === 403)) {
        credentials.markRevoked(session.token, this.state.lastError);
      } else if (!this.stopController.signal.aborted) {
        logger.warn({ failure: this.state.lastError }, 'could not refresh the store configuration; keeping the current one');
      }
      return false;
    }
    let parsed: ParsedStoreConfig;
    try {
      parsed = parseStoreConfig(result.value);
    } catch (e) {
      this.state.lastError = `invalid configuration from server: ${(e as Error).message}`;
      logger.error({ err: e }, 'the server sent an invalid store configuration; keeping the current one');
      return false;
    }
    const now = new Date();
    this.state.lastError = null;
    this.state.fetchedAt = now.toISOString();
    if (isDeepStrictEqual(result.value, this.body)) return true;
    dataDir.writeStoreConfig(result.value, now);
    this.body = result.value;
    logger.info(
      { sensors: parsed.config.sensors.length, samplingIntervalSeconds: parsed.config.samplingIntervalSeconds },
      'store configuration updated',
    );
    this.apply(parsed);
    return true;
  }

  private apply(parsed: ParsedStoreConfig): void {
    for (const skipped of parsed.skipped) {
      this.options.logger.error({ entry: skipped.entry, reason: skipped.reason }, 'sensor left out of the store configuration');
    }
    this.state.sensors = parsed.config.sensors.length;
    this.state.samplingIntervalSeconds = parsed.config.samplingIntervalSeconds;
    this.options.onConfig(parsed.config);
  }
}

/** Fetches and stores the store configuration once (the `pair` command). */
export async function fetchStoreConfigOnce(
  client: ApiClient,
  dataDir: DataDir,
): Promise<{ ok: true; parsed: ParsedStoreConfig } | { ok: false; error: string }> {
  const result = await client.getConfig();
  if (!result.ok) return { ok: false, error: describeFailure(result.failure) };
  try {
    const parsed = parseStoreConfig(result.value);
    dataDir.writeStoreConfig(result.value, new Date());
    return { ok: true, parsed };
  } catch (e) {
    return { ok: false, error: `invalid configuration from server: ${(e as Error).message}` };
  }
}
