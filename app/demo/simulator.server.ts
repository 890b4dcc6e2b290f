import type { Logger } from 'pino';
import type { Db } from '~/db/db.server';
import { parseCompact } from '~/domain/japan-time';
import { ApiClient, type ApiFailure, type ApiResult, describeFailure } from '../../gateway/api-client';
import { type BackoffPolicy, parseRetryAfter, retryDelay, sleep } from '../../gateway/backoff';
import { parseStoreConfig } from '../../gateway/state';
import { COMPANIES } from './chain/chain';
import { MINUTE_MS } from './chain/curves';
import { buildDemoPlan, type PlannedSensor } from './chain/plan';
import { DemoSimulation, minutesPerBatch, resumeMinute, type SimulatedIncident, type SimulatedStore } from './chain/simulation';

// The living demo's simulated gateways, one per demo store, speaking to the console over HTTP
// exactly as the in-store daemon does: the demo administrator reads each store's PIN
// (GET /v1/stores/pin), the gateway pairs with it, reads its config and posts a gzipped batch
// every minute. On start each drains what it "buffered" while the console was stopped, from the
// store's newest stored reading (GET /v1/store_sensors), BACKFILL_LIMIT_MINUTES at most.
// Failures are logged and retried with backoff (never sooner than Retry-After); a revoked token
// means pairing again. Nothing here throws out of run(): the console must not fall with its demo.

export interface SimulatorOptions {
  /** The console's base URL. */
  server: string;
  /** The demo administrator's password. */
  password: string;
  /** The seed's `now`: the plan is rebuilt from it, so the curves go on where the seed stopped. */
  seededAt: Date;
  log: Logger;
  now?: () => Date;
  signal?: AbortSignal;
}

interface StoreGateway {
  simulated: SimulatedStore;
  token: string | null;
  /** The simulated sensors the store's config lists (null: config not read yet). */
  sensors: PlannedSensor[] | null;
  /** The next minute to send (null: not known until the store's newest reading is read). */
  next: number | null;
  retryAt: number;
  failures: number;
  /** The store has no PIN any more (removed): its gateway is gone for good. */
  retired: boolean;
}

const LOGIN = 'admin';
const BATCH_READINGS = 2000;
const REQUEST_TIMEOUT_MS = 30_000;
const BACKOFF: BackoffPolicy = { baseMs: 2_000, maxMs: 5 * 60_000 };
const RETRY_AFTER_MAX_MS = 15 * 60_000;
/** A refused pairing (the store's gateway was exchanged) is tried again after the pairing throttle's window. */
const PAIR_RETRY_MS = 15 * 60_000;
/** Batches go out this long after the minute they are labelled with starts. */
const TICK_OFFSET_MS = 1_000;

class ApiFailureError extends Error {
  constructor(readonly failure: ApiFailure) {
    super(describeFailure(failure));
  }
}

function valueOf<T>(result: ApiResult<T>): T {
  if (!result.ok) throw new ApiFailureError(result.failure);
  return result.value;
}

/** When the demo chain was seeded (the seed writes its `now` as the demo companies' created_at), or null for another database. */
export async function demoSeededAt(db: Db): Promise<Date | null> {
  const row = await db
    .selectFrom('companies')
    .select((eb) => eb.fn.min('created_at').as('seeded_at'))
    .where('company_id', 'in', COMPANIES.map((c) => c.companyId))
    .executeTakeFirst();
  return row?.seeded_at ?? null;
}

export class DemoSimulator {
  private simulation: DemoSimulation | null = null;
  private gateways: StoreGateway[] = [];
  private userToken: string | null = null;
  private loggedHour: number | null = null;

  constructor(private readonly options: SimulatorOptions) {}

  /** Waits until the console answers, then rebuilds the seed's plan. */
  async start(): Promise<void> {
    const { server, log, signal } = this.options;
    let waiting = false;
    while (!signal?.aborted && !(await fetch(`${server}/login`, { signal }).then((r) => r.ok, () => false))) {
      if (!waiting) log.info({ server }, 'waiting for the console');
      waiting = true;
      await sleep(1_000, signal);
    }
    // The curves after the seed minute do not depend on the days of history seeded: 0 is the cheapest plan.
    const plan = buildDemoPlan({ now: this.options.seededAt, days: 0 });
    this.simulation = new DemoSimulation(plan);
    this.gateways = this.simulation.stores.map((simulated) => ({ simulated, token: null, sensors: null, next: null, retryAt: 0, failures: 0, retired: false }));
    log.info(
      { seededAt: this.options.seededAt, stores: this.gateways.length, sensors: this.simulation.stores.reduce((n, s) => n + s.sensors.length, 0) },
      'demo gateways simulated',
    );
  }

  /** One pass: every store due sends its readings up to the current minute, pairing first where needed. Returns the readings accepted or repeated. */
  async catchUp(): Promise<number> {
    const nowMinute = Math.floor(this.nowMs() / MINUTE_MS);
    this.logIncidents(nowMinute);
    let sent = 0;
    for (const gateway of this.gateways) {
      if (this.options.signal?.aborted) break;
      if (gateway.retired || gateway.retryAt > this.nowMs()) continue;
      sent += await this.serve(gateway, nowMinute);
    }
    return sent;
  }

  /** Until the signal aborts: catch up, then sleep to the next minute (or the earliest retry). */
  async run(): Promise<void> {
    const { log, signal } = this.options;
    try {
      await this.start();
      const started = Date.now();
      log.info({ readings: await this.catchUp(), ms: Date.now() - started }, 'demo gateways paired and caught up');
      while (!signal?.aborted) {
        const now = this.nowMs();
        const nextTick = (Math.floor(now / MINUTE_MS) + 1) * MINUTE_MS + TICK_OFFSET_MS;
        const retries = this.gateways.filter((g) => !g.retired && g.retryAt > now).map((g) => g.retryAt);
        await sleep(Math.min(nextTick, ...retries) - now, signal);
        if (!signal?.aborted) log.debug({ readings: await this.catchUp() }, 'demo readings sent');
      }
    } catch (error) {
      log.error({ err: error }, 'the demo simulator stopped');
    }
  }

  private nowMs(): number {
    return (this.options.now?.() ?? new Date()).getTime();
  }

  private gatewayClient(token?: string): ApiClient {
    return new ApiClient({ server: this.options.server, token, timeoutMs: REQUEST_TIMEOUT_MS, signal: this.options.signal });
  }

  /** Sends the store's pending minutes; a revoked token is replaced at once, other failures wait for a retry. */
  private async serve(gateway: StoreGateway, nowMinute: number): Promise<number> {
    for (let attempt = 0; ; attempt++) {
      try {
        const sent = await this.send(gateway, nowMinute);
        gateway.failures = 0;
        return sent;
      } catch (error) {
        const failure: ApiFailure = error instanceof ApiFailureError ? error.failure : { kind: 'network', message: (error as Error)?.message ?? String(error) };
        const revoked = failure.kind === 'http' && failure.status === 401;
        if (revoked) gateway.token = null;
        if (revoked && attempt === 0) continue;
        // A post cut by the stop signal is no failure worth a warning.
        if (this.options.signal?.aborted) return 0;
        const delay = retryDelay(gateway.failures++, BACKOFF, failure.kind === 'http' ? failure.retryAfterMs : undefined, RETRY_AFTER_MAX_MS);
        gateway.retryAt = this.nowMs() + delay;
        this.options.log.warn({ storeId: gateway.simulated.store.storeId, failure: describeFailure(failure), retryInMs: delay }, 'a simulated gateway failed; will retry');
        return 0;
      }
    }
  }

  /** Pairs, reads the config and the resume point as needed, then posts the store's pending minutes. */
  private async send(gateway: StoreGateway, nowMinute: number): Promise<number> {
    const { storeId } = gateway.simulated.store;
    const log = this.options.log.child({ storeId });
    if (!gateway.token && !(await this.pair(gateway))) return 0;
    const token = gateway.token!;
    if (!gateway.sensors) {
      const listed = new Set(parseStoreConfig(valueOf(await this.gatewayClient(token).getConfig())).config.sensors.map((s) => s.serialNo));
      gateway.sensors = gateway.simulated.sensors.filter((s) => listed.has(s.serialNo));
    }
    const sensors = gateway.sensors;
    if (gateway.next === null) {
      gateway.next = resumeMinute(await this.newestStoredMinute(storeId, sensors), this.seedMinute(), nowMinute);
      log.debug({ minutes: nowMinute - gateway.next + 1 }, 'sending the readings buffered since the newest stored one');
    }
    let sent = 0;
    const step = minutesPerBatch(sensors.length, BATCH_READINGS);
    while (sensors.length > 0 && gateway.next <= nowMinute && !this.options.signal?.aborted) {
      const to = Math.min(nowMinute, gateway.next + step - 1);
      const readings = this.simulation!.readings(sensors, gateway.next, to);
      const answer = valueOf(await this.gatewayClient(token).postReadings(readings, false));
      if (answer.rejected.length > 0) {
        // Dropped, as the daemon does; a sensor removed in the console leaves the config, so read it again.
        log.warn({ rejected: answer.rejected.length, first: answer.rejected[0] }, 'the console rejected demo readings');
        gateway.sensors = null;
      }
      gateway.next = to + 1;
      sent += answer.accepted + answer.duplicates;
    }
    return sent;
  }

  private seedMinute(): number {
    return Math.floor(this.options.seededAt.getTime() / MINUTE_MS);
  }

  /** Pairs the store's gateway with its current PIN; false when it cannot now (and when to try again is set). */
  private async pair(gateway: StoreGateway): Promise<boolean> {
    const { store } = gateway.simulated;
    const pin = await this.currentOrNewPin(store.storeId);
    if (!pin.pin_code) {
      gateway.retired = true;
      this.options.log.warn({ storeId: store.storeId }, 'the store has no gateway PIN any more (removed): its simulated gateway stops');
      return false;
    }
    const result = await this.gatewayClient().pair(store.gatewayInfo!, pin.pin_code);
    if (!result.ok && result.failure.kind === 'http' && result.failure.status === 400) {
      // Not this store's gateway any more (exchanged in the console): retrying at once would only trip the throttle.
      gateway.retryAt = this.nowMs() + PAIR_RETRY_MS;
      this.options.log.warn({ storeId: store.storeId, failure: describeFailure(result.failure) }, 'the simulated gateway could not pair; will retry');
      return false;
    }
    gateway.token = valueOf(result).gatewayToken;
    gateway.sensors = null;
    return true;
  }

  /** The oldest of the sensors' newest stored readings (minute), or null when none has one. */
  private async newestStoredMinute(storeId: string, sensors: readonly PlannedSensor[]): Promise<number | null> {
    const store = await this.userGet<{ sensors: { serial_no: string; measured_at: string | null }[] }>(
      `/on-reco/v1/store_sensors?store_id=${encodeURIComponent(storeId)}&include_hidden=1`,
    );
    const serials = new Set(sensors.map((s) => s.serialNo));
    const minutes = store.sensors
      .filter((s) => serials.has(s.serial_no) && s.measured_at !== null)
      .map((s) => Math.floor(parseCompact(s.measured_at!)!.getTime() / MINUTE_MS));
    return minutes.length > 0 ? Math.min(...minutes) : null;
  }

  /** The store's PIN as the installer would get it: the current one, else a new one (null: a removed store holds none). */
  private async currentOrNewPin(storeId: string): Promise<{ pin_code: string | null }> {
    const current = await this.userGet<{ pin_code: string | null }>(`/on-reco/v1/stores/pin?store_id=${encodeURIComponent(storeId)}`);
    if (current.pin_code) return current;
    try {
      return await this.userCall<{ pin_code: string }>('/on-reco/v1/stores/pin', { method: 'POST', body: JSON.stringify({ store_id: storeId }) });
    } catch (error) {
      if (error instanceof ApiFailureError && error.failure.kind === 'http' && error.failure.status === 409) return { pin_code: null };
      throw error;
    }
  }

  /** A GET of the user API as the demo administrator, signing in (again) when needed. */
  private userGet<T>(path: string): Promise<T> {
    return this.userCall<T>(path, {});
  }

  private async userCall<T>(path: string, init: RequestInit): Promise<T> {
    for (let attempt = 0; ; attempt++) {
      this.userToken ??= await this.signIn();
      const headers = { Authorization: `Bearer ${this.userToken}`, ...(init.body ? { 'Content-Type': 'application/json' } : {}) };
      const response = await this.fetchOrFail(path, { ...init, headers });
      if (response.ok) return (await response.json()) as T;
      if (response.status === 401 && attempt === 0) {
        this.userToken = null;
        continue;
      }
      throw await this.httpFailure(response);
    }
  }

  private async signIn(): Promise<string> {
    const body = new URLSearchParams({ grant_type: 'password', username: LOGIN, password: this.options.password });
    const response = await this.fetchOrFail('/on-reco/token', { method: 'POST', body });
    if (!response.ok) throw await this.httpFailure(response);
    return ((await response.json()) as { access_token: string }).access_token;
  }

  private async fetchOrFail(path: string, init: RequestInit): Promise<Response> {
    const signals = [AbortSignal.timeout(REQUEST_TIMEOUT_MS), ...(this.options.signal ? [this.options.signal] : [])];
    try {
      return await fetch(this.options.server + path, { ...init, signal: AbortSignal.any(signals) });
    } catch (error) {
      throw new ApiFailureError({ kind: 'network', message: (error as Error).message });
    }
  }

  private async httpFailure(response: Response): Promise<ApiFailureError> {
    const retryAfterMs = parseRetryAfter(response.headers.get('Retry-After'), this.nowMs());
    return new ApiFailureError({ kind: 'http', status: response.status, retryAfterMs, message: (await response.text()).slice(0, 200) });
  }

  /** Once an hour, what the hour holds: a watcher of the demo knows where to look. */
  private logIncidents(nowMinute: number): void {
    const hour = Math.floor(nowMinute / 60);
    if (this.loggedHour === hour || !this.simulation) return;
    this.loggedHour = hour;
    const names = new Map(this.simulation.stores.flatMap(({ store, sensors }) => sensors.map((s) => [s.sensorId, `${store.storeName} ${s.name}`])));
    const describe = (incident: SimulatedIncident) =>
      incident.kind === 'excursion'
        ? { sensor: names.get(incident.sensorId), kind: 'excursion', from: new Date(incident.excursion.start * MINUTE_MS), minutes: incident.excursion.end - incident.excursion.start, delta: incident.excursion.delta }
        : { sensor: names.get(incident.sensorId), kind: 'error readings', from: new Date(incident.window.start * MINUTE_MS), minutes: incident.window.end - incident.window.start };
    this.options.log.info({ incidents: this.simulation.incidentsOfHour(hour).map(describe) }, 'demo incidents of this hour');
  }
}
