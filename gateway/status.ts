// The daemon's status file (written every statusIntervalSeconds and at stop) and the report the
// `status` command builds from it plus the buffer and the pairing.
import { readBufferStats, type BufferStats } from './buffer';
import type { ConfigRefresherStatus } from './config-refresher';
import { readJsonFile, writeFileAtomic } from './files';
import type { Logger } from './log';
import { notYetHeard, type RecorderStatus, type SensorSeen } from './recorder';
import { BUFFER_FILE, DataDir, STATUS_FILE } from './state';
import { DEFAULT_SAMPLING_INTERVAL_SECONDS } from './protocol';
import { parseMeasuredAt } from './time';
import type { UploaderStatus } from './uploader';
import type { HealthReporterStatus } from './health/reporter';

export interface DaemonStatus {
  pid: number;
  running: boolean;
  startedAt: string;
  updatedAt: string;
  statusIntervalSeconds: number;
  source: Record<string, unknown>;
  storeId: string | null;
  tokenRevoked: boolean;
  config: ConfigRefresherStatus;
  recorder: RecorderStatus;
  uploader: UploaderStatus;
  health?: HealthReporterStatus;
}

export class StatusWriter {
  private timer: NodeJS.Timeout | null = null;

  constructor(
    private readonly file: string,
    private readonly intervalMs: number,
    private readonly collect: () => Omit<DaemonStatus, 'updatedAt'>,
    private readonly logger: Logger,
  ) {}

  async start(): Promise<void> {
    this.write();
    this.timer = setInterval(() => this.write(), this.intervalMs);
  }

  /** Writes the final state (running: false). */
  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    this.write(false);
  }

  write(running = true): void {
    try {
      const status: DaemonStatus = { ...this.collect(), running, updatedAt: new Date().toISOString() };
      writeFileAtomic(this.file, JSON.stringify(status, null, 2) + '\n');
    } catch (e) {
      this.logger.warn({ err: e }, 'could not write the status file');
    }
  }
}

/** A sensor heard before is called silent after this long without a frame. */
const SILENT_MS = 10 * 60_000;
/** A sensor's problem (refused or undecodable frames) not seen again for this long is no longer shown. */
export const PROBLEM_GONE_MS = 10 * 60_000;

export type DaemonState = 'running' | 'stale' | 'stopped' | 'never-ran';

export interface StatusReport {
  dataDir: string;
  paired: boolean;
  storeId: string | null;
  server: string | null;
  pairedAt: string | null;
  gatewayInfo: string | null;
  daemon: { state: DaemonState; pid: number | null; updatedAt: string | null; startedAt: string | null; source: Record<string, unknown> | null };
  tokenRevoked: boolean;
  config: { fetchedAt: string | null; samplingIntervalSeconds: number | null; sensorsConfigured: number; lastError: string | null };
  buffer: (BufferStats & { oldestAgeSeconds: number | null }) | null;
  upload: UploaderStatus | null;
  sensors: (SensorSeen & { lastValue: number | null })[];
  otherDevicesHeard: number;
  problems: string[];
}

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Everything `status` shows, from the data dir (the daemon need not run). */
export function collectStatus(dataDir: DataDir, maxRows: number, now = Date.now()): StatusReport {
  const problems: string[] = [];
  const pairing = dataDir.readPairing();
  const storeConfig = dataDir.readStoreConfig();
  const daemon = readJsonFile(dataDir.path(STATUS_FILE)) as DaemonStatus | null;
  const buffer = readBufferStats(dataDir.path(BUFFER_FILE), maxRows);

  let state: DaemonState = 'never-ran';
  if (daemon) {
    const age = now - Date.parse(daemon.updatedAt);
    const fresh = age < Math.max(30_000, 3 * daemon.statusIntervalSeconds * 1000);
    state = daemon.running && processAlive(daemon.pid) ? (fresh ? 'running' : 'stale') : 'stopped';
  }
  if (!pairing) problems.push('not paired: run `onreco-gateway pair --server URL --gateway-info ID --pin PIN`');
  if (state !== 'running') problems.push(`daemon is ${state === 'never-ran' ? 'not running (it never ran here)' : state}`);
  const tokenRevoked = state === 'running' && Boolean(daemon?.tokenRevoked);
  if (tokenRevoked) problems.push('GATEWAY TOKEN REVOKED: uploads stopped (readings are kept); pair again to resume');
  if (buffer?.overflowPending) problems.push(`buffer overflowed: ${buffer.droppedTotal} oldest readings dropped (the console is told with the next upload)`);
  if (buffer && buffer.depth >= buffer.maxRows * 0.8) problems.push(`buffer ${Math.round((100 * buffer.depth) / buffer.maxRows)} % full`);
  if (state === 'running' && daemon && daemon.recorder.clockNotSet > 0) problems.push('system clock was not set: check NTP');

  const configured = storeConfig?.config.sensors ?? [];
  const seenBySerial = new Map((daemon?.recorder.sensors ?? []).map((s) => [s.serialNo, s]));
  const sensors = configured.map((s) => {
    const seen = seenBySerial.get(s.serialNo);
    const base = seen ?? notYetHeard(s);
    // A problem is shown while it recurs; one that has not come back for PROBLEM_GONE_MS is gone.
    const current = base.lastProblemAt != null && now - Date.parse(base.lastProblemAt) <= PROBLEM_GONE_MS;
    return { ...base, lastProblem: current ? base.lastProblem : null, lastValue: base.temperature };
  });
  if (state === 'running' && daemon) {
    // Right after a start nothing has been heard yet: a sensor is called silent only once the
    // daemon has listened for one sampling interval.
    const intervalMs = (storeConfig?.config.samplingIntervalSeconds ?? DEFAULT_SAMPLING_INTERVAL_SECONDS) * 1000;
    const listening = now - Date.parse(daemon.startedAt);
    const neverHeard = listening >= intervalMs ? sensors.filter((s) => !s.lastSeen) : [];
    const silent = sensors.filter((s) => s.lastSeen && now - Date.parse(s.lastSeen) > SILENT_MS);
    if (neverHeard.length > 0) {
      problems.push(`${neverHeard.length} sensor(s) not heard since the daemon started ${ago(daemon.startedAt, now)}: ${neverHeard.map((s) => s.serialNo).join(', ')}`);
    }
    if (silent.length > 0) problems.push(`${silent.length} sensor(s) not heard for 10 minutes: ${silent.map((s) => s.serialNo).join(', ')}`);
  }

  return {
    dataDir: dataDir.dir,
    paired: Boolean(pairing),
    storeId: pairing?.store_id ?? null,
    server: pairing?.server ?? null,
    pairedAt: pairing?.paired_at ?? null,
    gatewayInfo: pairing?.gateway_info ?? null,
    daemon: {
      state,
      pid: daemon?.pid ?? null,
      updatedAt: daemon?.updatedAt ?? null,
      startedAt: daemon?.startedAt ?? null,
      source: daemon?.source ?? null,
    },
    tokenRevoked,
    config: {
      fetchedAt: daemon?.config.fetchedAt ?? storeConfig?.fetchedAt ?? null,
      samplingIntervalSeconds: storeConfig?.config.samplingIntervalSeconds ?? null,
      sensorsConfigured: configured.length,
      lastError: daemon?.config.lastError ?? null,
    },
    buffer: buffer && {
      ...buffer,
      oldestAgeSeconds: buffer.oldest ? Math.round((now - parseMeasuredAt(buffer.oldest)) / 1000) : null,
    },
    upload: daemon?.uploader ?? null,
    sensors,
    otherDevicesHeard: daemon?.recorder.otherDevicesHeard ?? 0,
    problems,
  };
}

const ago = (iso: string | null, now: number) => {
  if (!iso) return 'never';
  const s = Math.max(0, Math.round((now - Date.parse(iso)) / 1000));
  if (s < 120) return `${s} s ago`;
  if (s < 7200) return `${Math.round(s / 60)} min ago`;
  if (s < 172_800) return `${(s / 3600).toFixed(1)} h ago`;
  return `${(s / 86_400).toFixed(1)} d ago`;
};

/** The human form of the report. */
export function formatStatus(r: StatusReport, now = Date.now()): string {
  const lines: string[] = [];
  lines.push(r.paired ? `Store:    ${r.storeId} (gateway ${r.gatewayInfo}, server ${r.server}, paired ${r.pairedAt})` : 'Store:    not paired');
  const d = r.daemon;
  lines.push(`Daemon:   ${d.state}${d.pid ? ` (pid ${d.pid}, status ${ago(d.updatedAt, now)})` : ''}${d.source?.kind ? `, source ${String(d.source.kind)}${d.source.state ? ` ${String(d.source.state)}` : ''}` : ''}`);
  lines.push(
    `Config:   ${r.config.sensorsConfigured} sensors, every ${r.config.samplingIntervalSeconds ?? '?'} s, fetched ${ago(r.config.fetchedAt, now)}` +
      (r.config.lastError ? ` (last refresh failed: ${r.config.lastError})` : ''),
  );
  if (r.buffer) {
    lines.push(
      `Buffer:   ${r.buffer.depth} reading(s) waiting` +
        (r.buffer.oldest ? `, oldest ${r.buffer.oldest} (${Math.round((r.buffer.oldestAgeSeconds ?? 0) / 60)} min old)` : '') +
        `, limit ${r.buffer.maxRows}` +
        (r.buffer.droppedTotal ? `, ${r.buffer.droppedTotal} dropped when full` : ''),
    );
  } else {
    lines.push('Buffer:   none yet');
  }
  const u = r.upload;
  if (u) {
    const last = u.lastAttempt;
    const result = !last
      ? 'no upload yet'
      : last.ok
        ? `ok ${ago(last.at, now)}: ${last.readings} sent, ${last.accepted} accepted, ${last.duplicates} duplicates, ${last.rejected} rejected`
        : `FAILED ${ago(last.at, now)}: ${last.error}`;
    lines.push(`Upload:   ${u.phase}; last ${result}; last success ${ago(u.lastSuccessAt, now)}` + (u.nextRetryAt ? `; next retry ${u.nextRetryAt}` : ''));
  } else {
    lines.push('Upload:   unknown (daemon status not available)');
  }
  lines.push('Sensors:');
  if (r.sensors.length === 0) lines.push('  (none configured)');
  for (const s of r.sensors) {
    const value = s.sensorError ? 'SENSOR ERROR' : s.lastValue === null ? '-' : `${s.lastValue.toFixed(2)} °C`;
    const battery = s.battery !== null ? `${s.battery} %` : s.batteryMv !== null ? `${s.batteryMv} mV` : '-';
    lines.push(
      `  ${s.serialNo}  equipment ${s.equipmentId.padEnd(8)} last seen ${ago(s.lastSeen, now).padEnd(11)} ` +
        `RSSI ${s.rssi ?? '-'} dBm  battery ${battery}  ${value}${s.format ? `  (${s.format})` : ''}` +
        (s.lastProblem ? `  ! ${s.lastProblem}` : ''),
    );
  }
  if (r.otherDevicesHeard) lines.push(`Other BLE devices heard (not this store's sensors): ${r.otherDevicesHeard}`);
  if (r.problems.length) {
    lines.push('Problems:');
    for (const p of r.problems) lines.push(`  - ${p}`);
  }
  return lines.join('\n');
}
