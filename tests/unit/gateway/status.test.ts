// What `status` says about the store's sensors: no "not heard" right after a start, and a sensor's
// problem only while it keeps happening.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { notYetHeard, type SensorSeen } from '../../../gateway/recorder';
import { DataDir, STATUS_FILE } from '../../../gateway/state';
import { collectStatus, formatStatus, PROBLEM_GONE_MS, type DaemonStatus } from '../../../gateway/status';

const FIXTURES = path.resolve(__dirname, '../../fixtures/gateway');
const CONFIG = JSON.parse(readFileSync(path.join(FIXTURES, 'store-config.json'), 'utf8')) as {
  sampling_interval_seconds: number;
  sensors: { equipment_id: string; serial_no: string }[];
};
const NOW = Date.parse('2026-01-15T10:00:00Z');
const iso = (msAgo: number) => new Date(NOW - msAgo).toISOString();

function dataDirWith(startedMsAgo: number, sensors: Partial<SensorSeen>[]): DataDir {
  const dir = new DataDir(mkdtempSync(path.join(tmpdir(), 'gw-status-')));
  dir.writeStoreConfig(CONFIG, new Date(NOW - startedMsAgo));
  const status = {
    pid: process.pid, // alive: the daemon counts as running
    running: true,
    startedAt: iso(startedMsAgo),
    updatedAt: iso(1000),
    statusIntervalSeconds: 10,
    source: { kind: 'bluez' },
    storeId: 'S0001',
    tokenRevoked: false,
    config: { fetchedAt: null, lastError: null },
    recorder: {
      samplingIntervalSeconds: 60, aggregatedBefore: null, readingsRecorded: 0, lateAdvertisements: 0, clockNotSet: 0, otherDevicesHeard: 0,
      sensors: CONFIG.sensors.map((s, i) => ({ ...notYetHeard({ serialNo: s.serial_no, equipmentId: s.equipment_id }), ...sensors[i] })),
    },
    uploader: null,
  } as unknown as DaemonStatus;
  writeFileSync(dir.path(STATUS_FILE), JSON.stringify(status));
  return dir;
}

const silentProblems = (problems: string[]) => problems.filter((p) => /not heard/.test(p));

describe('status: sensors not heard', () => {
  it('calls no sensor unheard within the first sampling interval after a start', () => {
    const report = collectStatus(dataDirWith(20_000, []), 10_000, NOW);
    expect(report.daemon.state).toBe('running');
    expect(silentProblems(report.problems)).toEqual([]);
  });

  it('after one interval, names the sensors never heard since the start, apart from those heard long ago', () => {
    const heard = { lastSeen: iso(5_000), heard: 3, used: 3, temperature: 4.2 };
    const sensors: Partial<SensorSeen>[] = CONFIG.sensors.map(() => heard);
    sensors[2] = {};
    sensors[5] = { ...heard, lastSeen: iso(11 * 60_000) };
    const report = collectStatus(dataDirWith(61_000, sensors), 10_000, NOW);
    expect(silentProblems(report.problems)).toEqual([
      `1 sensor(s) not heard since the daemon started 61 s ago: ${CONFIG.sensors[2].serial_no}`,
      `1 sensor(s) not heard for 10 minutes: ${CONFIG.sensors[5].serial_no}`,
    ]);
  });
});

describe("status: a sensor's problem", () => {
  const reason = 'bthome-v2: plain frame from a sensor that has a key (refused: anyone can send plain frames under its address)';

  it('is shown while it recurs and cleared once it has not come back for a while', () => {
    const recent = { lastSeen: iso(1000), heard: 9, lastProblem: reason, lastProblemAt: iso(60_000) };
    const old = { ...recent, lastProblemAt: iso(PROBLEM_GONE_MS + 1000) };
    const report = collectStatus(dataDirWith(3600_000, [recent, old]), 10_000, NOW);
    expect(report.sensors[0].lastProblem).toBe(reason);
    expect(report.sensors[1].lastProblem).toBeNull();
    const text = formatStatus(report, NOW).split('\n');
    expect(text.find((l) => l.includes(CONFIG.sensors[0].serial_no))).toContain(`! ${reason}`);
    expect(text.find((l) => l.includes(CONFIG.sensors[1].serial_no))).not.toContain('!');
  });
});
