// Collects the health report (protocol.ts HealthReportSchema) from the daemon's parts: the buffer,
// the source (BLE adapter), the recorder (sensors heard), the data directory's disk and the modem.
import { statfsSync } from 'node:fs';
import type { BleAdapterState, HealthReport } from '../protocol';
import { formatMeasuredAt } from '../time';
import type { ModemSignalSource } from './modem';

export interface HealthParts {
  version: string;
  startedAtMs: number;
  buffer: { depth: number; maxRows: number; oldestMeasuredAt(): string | null; droppedTotal(): number };
  /** The data directory: its file system's free and total bytes. */
  dataDir: string;
  source: () => { kind?: string; status(): Record<string, unknown> } | null;
  /** Last-heard times (ISO) of the store's sensors. */
  sensorsLastSeen: () => (string | null)[];
  /** A sensor heard within this window counts as heard "in the last interval". */
  heardWindowMs: number;
  modem: ModemSignalSource;
  now: () => number;
  statfs?: (dir: string) => { bavail: number; blocks: number; bsize: number };
}

export async function collectHealth(parts: HealthParts): Promise<HealthReport> {
  const now = parts.now();
  const disk = diskOf(parts);
  const since = now - parts.heardWindowMs;
  return {
    reported_at: formatMeasuredAt(now),
    version: parts.version.slice(0, 64),
    uptime_seconds: Math.max(0, Math.floor((now - parts.startedAtMs) / 1000)),
    buffer_depth: Math.min(parts.buffer.depth, parts.buffer.maxRows),
    buffer_capacity: parts.buffer.maxRows,
    oldest_unsent_at: parts.buffer.depth > 0 ? parts.buffer.oldestMeasuredAt() : null,
    disk_free_bytes: disk?.free ?? null,
    disk_total_bytes: disk?.total ?? null,
    ble_adapter: adapterState(parts.source()),
    sensors_heard: parts.sensorsLastSeen().filter((seen) => seen !== null && Date.parse(seen) >= since).length,
    lte_rssi: await parts.modem.lteRssi(),
    dropped_total: parts.buffer.droppedTotal(),
  };
}

function diskOf(parts: HealthParts): { free: number; total: number } | null {
  try {
    const stats = (parts.statfs ?? statfsSync)(parts.dataDir);
    return { free: stats.bavail * stats.bsize, total: stats.blocks * stats.bsize };
  } catch {
    return null;
  }
}

/** The BLE source's state as the console shows it: scanning is on, replay/simulate are simulated. */
export function adapterState(source: { kind?: string; status(): Record<string, unknown> } | null): BleAdapterState {
  if (!source) return 'unknown';
  if (source.kind !== 'bluez') return 'simulated';
  const state = source.status().state;
  if (state === 'scanning') return 'on';
  if (state === 'retrying' || state === 'restarting' || state === 'stopped') return 'off';
  return 'unknown';
}
