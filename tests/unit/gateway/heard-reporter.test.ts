// The heard reporter with the replay source: addresses that are not the store's sensors and that
// decode as a supported sensor are reported to POST /heard with their latest frame; store sensors
// and undecodable devices are not; a failed report is kept for the next one.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { HeardReporter } from '../../../gateway/heard-reporter';
import { silentLogger } from '../../../gateway/log';
import { HeardRequestSchema } from '../../../gateway/protocol';
import { formatCaptureLine } from '../../../gateway/sources/capture';
import { BTHOME_UUID, encodeBthome } from '../../../gateway/sources/frames';
import { ReplaySource } from '../../../gateway/sources/replay-source';

const STORE_SENSOR = 'A4:C1:38:00:00:01';
const NEW_SENSOR = 'A4:C1:38:00:00:77';
const PHONE = '5E:11:22:33:44:55';
const T0 = Date.parse('2026-01-15T03:00:00Z');

let server: Server;
let received: unknown[] = [];
let status = 200;

beforeEach(async () => {
  received = [];
  status = 200;
  server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk) => (body += chunk));
    req.on('end', () => {
      received.push({ url: req.url, auth: req.headers.authorization, body: JSON.parse(body) });
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(status === 200 ? JSON.stringify({ stored: 1 }) : JSON.stringify({ error: 'busy' }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
});
afterEach(() => new Promise<void>((resolve) => server.close(() => resolve())));

const bthome = (address: string, ts: number, packetId: number, temperature: number) =>
  formatCaptureLine({ ts, adv: { address, rssi: -66, manufacturerData: {}, serviceData: { [BTHOME_UUID]: encodeBthome({ packetId, battery: 80, temperature }) } } });

async function replay(lines: string[], reporter: HeardReporter) {
  const file = path.join(mkdtempSync(path.join(tmpdir(), 'gw-heard-')), 'capture.jsonl');
  writeFileSync(file, `${lines.join('\n')}\n`);
  await new Promise<void>((resolve, reject) => {
    const source = new ReplaySource(file, { onAdvertisement: (heard) => reporter.note(heard), onEnd: () => resolve(), onError: reject }, silentLogger());
    void source.start();
  });
}

describe('the heard reporter', () => {
  it('reports the latest frame of each unregistered sensor, not the store\'s sensors nor other devices', async () => {
    const port = (server.address() as AddressInfo).port;
    const credentials = { reload: () => true, session: () => ({ server: `http://127.0.0.1:${port}`, token: 'gw-token', storeId: 'S0001' }) };
    const reporter = new HeardReporter({ credentials, logger: silentLogger(), intervalMs: 60_000, requestTimeoutMs: 2000, isStoreSensor: (address) => address === STORE_SENSOR });
    await replay(
      [
        bthome(STORE_SENSOR, T0, 1, 4.5),
        bthome(NEW_SENSOR, T0 + 1000, 1, 5.25),
        bthome(NEW_SENSOR, T0 + 61_000, 2, 6.0),
        formatCaptureLine({ ts: T0 + 2000, adv: { address: PHONE, rssi: -50, manufacturerData: { '004c': new Uint8Array([2, 21]) }, serviceData: {} } }),
      ],
      reporter,
    );
    status = 503;
    await reporter.flush();
    expect(reporter.pending()).toHaveLength(1);
    status = 200;
    await reporter.flush();
    expect(reporter.pending()).toHaveLength(0);
    expect(received).toHaveLength(2);
    const last = received[1] as { url: string; auth: string; body: unknown };
    expect(last.url).toBe('/on-reco/v1/gateway/heard');
    expect(last.auth).toBe('Bearer gw-token');
    const report = HeardRequestSchema.parse(last.body);
    expect(report.sensors).toEqual([{ serial_no: NEW_SENSOR, format: 'bthome-v2', temperature: 6, receive_sensitivity: -66, heard_at: '20260115120101' }]);
  });
});
