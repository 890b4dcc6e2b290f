// The onreco-gateway commands, run in-process (commander with exitOverride) against the
// protocol test peer and the capture fixture.
import { mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { gunzipSync } from 'node:zlib';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runCli, type CliContext } from '../../../gateway/cli';
import { encodeBthome } from '../../../gateway/sources/frames';
import { formatMeasuredAt, intervalStart } from '../../../gateway/time';
import { TestPeer } from './support/test-peer';

const FIXTURES = path.resolve(__dirname, '../../fixtures/gateway');
const CAPTURE = path.join(FIXTURES, 'store-capture.jsonl.gz');
const STORE_CONFIG = JSON.parse(readFileSync(path.join(FIXTURES, 'store-config.json'), 'utf8')) as {
  sensors: { equipment_id: string; serial_no: string; encryption_key: string | null }[];
};

interface Run {
  code: number;
  out: string;
  err: string;
  logs: { level: number; msg: string }[];
}

async function cli(args: string[], env: Record<string, string> = {}, waitForStop = () => new Promise<string>(() => undefined)): Promise<Run> {
  let out = '';
  let err = '';
  const logs: Run['logs'] = [];
  const ctx: CliContext = {
    stdout: (t) => void (out += t),
    stderr: (t) => void (err += t),
    env,
    waitForStop,
    logDestination: new Writable({
      write(chunk, _e, done) {
        logs.push(JSON.parse(String(chunk)));
        done();
      },
    }),
    exitCode: 0,
  };
  const code = await runCli(args, ctx);
  return { code, out, err, logs };
}

describe('decode', () => {
  it('prints the fields the format carries, battery_mv for batteryMv', async () => {
    const bthome = await cli(['decode', '--service-data', 'fcd2:40000101640209090319130c800b']);
    expect(bthome.code).toBe(0);
    expect(JSON.parse(bthome.out)).toEqual({ format: 'bthome-v2', temperature: 23.13, humidity: 48.89, battery: 100, battery_mv: 2944 });
    const ruuvi = await cli(['decode', '--manufacturer-data', '0499:0512FC5394C37C0004FFFC040CAC364200CDCBB8334C884F']);
    expect(JSON.parse(ruuvi.out)).toEqual({ format: 'ruuvi-5', temperature: 24.3, humidity: 53.49, battery_mv: 2977 });
  });

  it('decrypts with --key and --mac', async () => {
    // An encrypted BTHome frame made by the fixture generator's encoder (sensor 1002, its key).
    const sensor = STORE_CONFIG.sensors[1];
    const line = gunzipSync(readFileSync(CAPTURE)).toString('utf8').split('\n').find((l) => l.includes(sensor.serial_no))!;
    const hex = JSON.parse(line).service_data.fcd2 as string;
    const ok = await cli(['decode', '--service-data', `fcd2:${hex}`, '--mac', sensor.serial_no, '--key', sensor.encryption_key!]);
    expect(ok.code).toBe(0);
    expect(JSON.parse(ok.out)).toMatchObject({ format: 'bthome-v2', battery: expect.any(Number), temperature: expect.any(Number) });
    const noKey = await cli(['decode', '--service-data', `fcd2:${hex}`, '--mac', sensor.serial_no]);
    expect(noKey.code).toBe(1);
    expect(noKey.err).toMatch(/cannot decode: bthome-v2: encrypted frame and no key/);
  });

  it('exits 1 with a clear message', async () => {
    const unknown = await cli(['decode', '--manufacturer-data', '004c:1005']);
    expect([unknown.code, unknown.out]).toEqual([1, '']);
    expect(unknown.err).toMatch(/^onreco-gateway: cannot decode: no supported format/);
    expect((await cli(['decode', '--service-data', 'fcd:40'])).err).toMatch(/--service-data takes ID:HEX/);
    expect((await cli(['decode'])).err).toMatch(/nothing to decode/);
    expect((await cli(['decode', '--service-data', 'fcd2:40', '--mac', 'xx'])).err).toMatch(/not a BLE address/);
  });

  it('--file prints one line per advertisement, in order, with errors in place', async () => {
    const file = path.join(mkdtempSync(path.join(tmpdir(), 'gw-decode-')), 'c.jsonl');
    writeFileSync(
      file,
      [
        '{"ts":"2026-01-15T00:00:00Z","address":"AA:BB:CC:DD:EE:01","service_data":{"fcd2":"4002c409"}}',
        '{"ts":"2026-01-15T00:00:01Z","address":"AA:BB:CC:DD:EE:02","manufacturer_data":{"004c":"1005"}}',
        'not json',
        '{"ts":"2026-01-15T00:00:02Z","address":"AA:BB:CC:DD:EE:03","manufacturer_data":{"0499":"0512FC5394C37C0004FFFC040CAC364200CDCBB8334C884F"}}',
      ].join('\n') + '\n',
    );
    const run = await cli(['decode', '--file', file]);
    expect(run.code).toBe(0);
    const lines = run.out.trim().split('\n').map((l) => JSON.parse(l));
    expect(lines).toHaveLength(4);
    expect(lines[0]).toEqual({ format: 'bthome-v2', temperature: 25 });
    expect(lines[1].error).toMatch(/no supported format/);
    expect(lines[2]).toEqual({ error: 'line 3: invalid JSON' });
    expect(lines[3]).toMatchObject({ format: 'ruuvi-5' });
    expect((await cli(['decode', '--file', '/nonexistent.jsonl'])).err).toMatch(/cannot read/);
  });
});

describe('pair, run (replay), status', () => {
  let peer: TestPeer;
  let dataDir: string;
  beforeEach(async () => {
    peer = new TestPeer({ config: STORE_CONFIG });
    await peer.start();
    dataDir = mkdtempSync(path.join(tmpdir(), 'gw-cli-'));
  });
  afterEach(() => peer.stop());

  it('refuses a wrong PIN with the server message, and stores nothing', async () => {
    const run = await cli(['pair', '--data-dir', dataDir, '--server', peer.url, '--gateway-info', 'GW-0001', '--pin', '000000']);
    expect(run.code).toBe(1);
    expect(run.err).toMatch(/pairing refused: invalid_pin: The PIN is wrong or has expired/);
    expect(() => statSync(path.join(dataDir, 'pairing.json'))).toThrow();
    const noServer = await cli(['pair', '--data-dir', dataDir, '--gateway-info', 'GW-0001', '--pin', '1']);
    expect(noServer.err).toMatch(/pair needs --server/);
  });

  it('pairs, keeps the token 0600 and the sensor list; replays the capture, uploads everything and exits 0', async () => {
    const pair = await cli(['pair', '--data-dir', dataDir, '--server', peer.url, '--gateway-info', 'GW-0001', '--pin', '123456']);
    expect(pair.code).toBe(0);
    expect(pair.out).toMatch(/Paired with store S0001/);
    expect(pair.out).toMatch(/20 sensor\(s\), one reading every 60 s/);
    expect(statSync(path.join(dataDir, 'pairing.json')).mode & 0o777).toBe(0o600);
    expect(JSON.parse(readFileSync(path.join(dataDir, 'pairing.json'), 'utf8'))).toMatchObject({ gateway_token: peer.token, store_id: 'S0001' });
    expect(statSync(path.join(dataDir, 'store-config.json')).mode & 0o777).toBe(0o600);

    const run = await cli(['run', '--data-dir', dataDir, '--source', `replay:${CAPTURE}`, '--exit-when-drained', '--log-level', 'info']);
    expect(run.code).toBe(0);
    expect(run.logs.some((l) => l.msg === 'replay finished')).toBe(true);

    // What the server must hold: one reading per (store sensor, minute) in which it was heard,
    // worked out from the capture itself.
    const sensors = new Set(STORE_CONFIG.sensors.map((s) => s.serial_no));
    const expected = new Set<string>();
    for (const line of gunzipSync(readFileSync(CAPTURE)).toString('utf8').trim().split('\n')) {
      const { ts, address } = JSON.parse(line) as { ts: string; address: string };
      if (sensors.has(address)) expected.add(`${address}|${formatMeasuredAt(intervalStart(Date.parse(ts), 60_000))}`);
    }
    expect(peer.storedKeys()).toEqual([...expected].sort());
    expect(peer.stored.size).toBe(3575);

    const readings = [...peer.stored.values()];
    // Nothing from the neighbours, nothing from the spoofed plain frames (99.99 °C).
    expect(readings.every((r) => sensors.has(r.serial_no))).toBe(true);
    expect(readings.some((r) => r.temperature === 100 || (r.temperature ?? 0) > 90)).toBe(false);
    // Sensor 1007 was silent 10:00-10:25: no readings then (the server raises no-communication).
    const s1007 = STORE_CONFIG.sensors[6].serial_no;
    expect(readings.filter((r) => r.serial_no === s1007 && r.measured_at >= '20260115100000' && r.measured_at < '20260115102500')).toEqual([]);
    // Sensor 1014 reported "not available" 10:40-10:45: error readings.
    const s1014 = STORE_CONFIG.sensors[13].serial_no;
    const errors = readings.filter((r) => r.serial_no === s1014 && r.error);
    expect(errors.map((r) => r.measured_at).sort()).toEqual(['20260115104000', '20260115104100', '20260115104200', '20260115104300', '20260115104400']);
    expect(errors.every((r) => r.temperature === null)).toBe(true);
    // Plausible values with one decimal, battery and RSSI alongside.
    for (const r of readings.filter((x) => !x.error)) {
      expect(Math.round(r.temperature! * 10) / 10).toBe(r.temperature);
      expect(r.battery).toBeGreaterThan(0);
      expect(r.receive_sensitivity).toBeLessThan(-40);
    }

    const status = await cli(['status', '--data-dir', dataDir, '--json']);
    expect(status.code).toBe(0);
    const report = JSON.parse(status.out);
    expect(report).toMatchObject({ paired: true, storeId: 'S0001', daemon: { state: 'stopped' }, buffer: { depth: 0, oldest: null } });
    expect(report.upload.lastAttempt).toMatchObject({ ok: true });
    expect(report.upload.totals.accepted).toBe(3575);
    expect(report.sensors).toHaveLength(20);
    expect(report.sensors[0]).toMatchObject({ serialNo: STORE_CONFIG.sensors[0].serial_no, format: 'bthome-v2', rssi: expect.any(Number), battery: expect.any(Number), lastValue: expect.any(Number) });
    expect(report.sensors[1].dropped.downgrade).toBe(6); // the spoofed frames
    expect(report.otherDevicesHeard).toBe(4);
    const text = await cli(['status', '--data-dir', dataDir]);
    expect(text.out).toMatch(/Store: +S0001/);
    expect(text.out).toMatch(/Buffer: +0 reading\(s\) waiting/);
    expect(text.out).toMatch(/Upload: .*3575 accepted|Upload: .*accepted/);
  }, 60_000);

  it('scan prints what it hears, decoded, marks the store sensors, and lists those not heard', async () => {
    await cli(['pair', '--data-dir', dataDir, '--server', peer.url, '--gateway-info', 'GW-0001', '--pin', '123456']);
    const run = await cli(['scan', '--data-dir', dataDir, '--source', `replay:${CAPTURE}`]);
    expect(run.code).toBe(0);
    const lines = run.out.split('\n');
    const s1002 = STORE_CONFIG.sensors[1].serial_no;
    // An encrypted store sensor, decoded with its key from the stored config.
    expect(lines.find((l) => l.includes(s1002) && l.includes('store sensor 1002') && /°C/.test(l))).toBeDefined();
    // A neighbour's sensor: decoded, marked as not the store's.
    expect(lines.find((l) => l.includes('F0:0D:CA:FE:00:02') && l.includes('ruuvi-5') && l.includes('[not a store sensor]'))).toBeDefined();
    // Phones are left out unless --all.
    expect(run.out).not.toContain('5C:F3:70:AA:12:01');
    expect(run.out).toMatch(/Store sensors heard: 20 of 20/);
    expect(run.out).toMatch(/Sensors in range that are not this store's \(2\)/);
    // 1002 has a key: its spoofed plain frames (99.99 °C) are refused as the daemon refuses them.
    const spoofed = lines.filter((l) => l.includes(s1002) && l.includes('REFUSED'));
    expect(spoofed).toHaveLength(6);
    expect(spoofed[0]).toContain('bthome-v2: plain frame from a sensor that has a key');
    expect(lines.some((l) => l.includes(s1002) && l.includes('99.99'))).toBe(false);
    expect(run.out).toMatch(new RegExp(`Store sensors with refused frames beside good ones \\(1\\):\n  ${s1002}  6 refused`));

    const json = await cli(['scan', '--data-dir', dataDir, '--source', `replay:${CAPTURE}`, '--json', '--all']);
    const first = json.out.split('\n').filter(Boolean).map((l) => JSON.parse(l));
    expect(first.some((l) => l.address === '5C:F3:70:AA:12:01' && /no supported format/.test(l.error))).toBe(true);
    expect(first.find((l) => l.store_sensor === '1001')).toMatchObject({ decoded: { format: 'bthome-v2' } });
  }, 60_000);

  it("scan does not count a keyed sensor heard through plain frames only, and says why", async () => {
    await cli(['pair', '--data-dir', dataDir, '--server', peer.url, '--gateway-info', 'GW-0001', '--pin', '123456']);
    const s1002 = STORE_CONFIG.sensors[1].serial_no;
    const file = path.join(dataDir, 'plain.jsonl');
    const plain = Buffer.from(encodeBthome({ packetId: 1, temperature: 4.5 })).toString('hex');
    writeFileSync(file, [0, 1, 2].map((i) => JSON.stringify({ ts: `2026-01-15T00:00:0${i}Z`, address: s1002, service_data: { fcd2: plain } })).join('\n') + '\n');
    const run = await cli(['scan', '--data-dir', dataDir, '--source', `replay:${file}`]);
    expect(run.out).toMatch(/Store sensors heard: 0 of 20/);
    expect(run.out).toContain(`NOT HEARD: ${s1002} (equipment 1002): 3 frame(s) refused, last: bthome-v2: plain frame from a sensor that has a key`);
    expect(run.out).not.toMatch(/4\.5 °C/);
    const json = await cli(['scan', '--data-dir', dataDir, '--source', `replay:${file}`, '--json']);
    const first = JSON.parse(json.out.split('\n')[0]);
    expect(first).toMatchObject({ store_sensor: '1002', refused: expect.stringMatching(/^bthome-v2: plain frame/) });
    expect(first.decoded).toBeUndefined();
  }, 60_000);

  it('run exits 1 with one clear line when it cannot start', async () => {
    const unpaired = await cli(['run', '--data-dir', dataDir, '--source', 'simulate']);
    expect(unpaired.code).toBe(1);
    expect(unpaired.logs.find((l) => l.level === 60)?.msg).toMatch(/not paired/);
    await cli(['pair', '--data-dir', dataDir, '--server', peer.url, '--gateway-info', 'GW-0001', '--pin', '123456']);
    const missing = await cli(['run', '--data-dir', dataDir, '--source', 'replay:/nonexistent.jsonl']);
    expect(missing.code).toBe(1);
    expect(missing.logs.find((l) => l.level === 60)?.msg).toMatch(/ENOENT|no such file/);
    expect((await cli(['run', '--data-dir', dataDir, '--upload-batch-size', '9999'])).err).toMatch(/uploadBatchSize \(from --upload-batch-size\)/);
  });

  it('status shows a buffered backlog and the failing upload while the server is down', async () => {
    await cli(['pair', '--data-dir', dataDir, '--server', peer.url, '--gateway-info', 'GW-0001', '--pin', '123456']);
    for (let i = 0; i < 100; i++) peer.misbehaviours.push({ status: 503 });
    let stop!: (reason: string) => void;
    const stopped = new Promise<string>((r) => (stop = r));
    const running = cli(['run', '--data-dir', dataDir, '--source', `replay:${CAPTURE}`, '--retry-base-ms', '20', '--status-interval-seconds', '1'], {}, () => stopped);
    let report: { buffer: { depth: number; oldest: string }; upload: { lastAttempt: { ok: boolean; error: string } }; daemon: { state: string } } | null = null;
    for (let i = 0; i < 100; i++) {
      await new Promise((r) => setTimeout(r, 100));
      const s = await cli(['status', '--data-dir', dataDir, '--json']);
      report = JSON.parse(s.out);
      if (report!.buffer?.depth === 3575 && report!.upload?.lastAttempt?.ok === false) break;
    }
    expect(report!.daemon.state).toBe('running');
    expect(report!.buffer).toMatchObject({ depth: 3575, oldest: '20260115090000' });
    expect(report!.upload.lastAttempt.error).toMatch(/HTTP 503/);
    stop('test');
    expect((await running).code).toBe(0);
  }, 60_000);
});
