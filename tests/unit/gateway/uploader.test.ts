import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Reading } from '../../../gateway/aggregator';
import { ReadingBuffer } from '../../../gateway/buffer';
import { Credentials } from '../../../gateway/credentials';
import { createLogger } from '../../../gateway/log';
import { DataDir } from '../../../gateway/state';
import { Uploader, type UploaderOptions } from '../../../gateway/uploader';
import { TestPeer } from './support/test-peer';

let peer: TestPeer;
let dataDir: DataDir;
let buffer: ReadingBuffer;
let uploader: Uploader | null;
let logs: { level: number; msg: string; [k: string]: unknown }[];

function logger() {
  const stream = new Writable({
    write(chunk, _enc, done) {
      logs.push(JSON.parse(String(chunk)));
      done();
    },
  });
  return createLogger('debug', stream);
}

function readings(n: number, serialNo = 'A4:C1:38:00:00:01', fromMinute = 0): Reading[] {
  const base = Date.UTC(2026, 0, 15, 0, 0);
  return Array.from({ length: n }, (_, i) => {
    const d = new Date(base + (fromMinute + i) * 60_000 + 9 * 3600_000);
    const measuredAt = d.toISOString().replace(/[-:T]/g, '').slice(0, 12) + '00';
    return { serialNo, measuredAt, temperature: 4 + (i % 10) / 10, error: false, battery: 90, rssi: -70 };
  });
}

async function startUploader(overrides: Partial<UploaderOptions> = {}) {
  const log = logger();
  const credentials = new Credentials(dataDir, undefined, log);
  uploader = new Uploader({
    buffer,
    credentials,
    logger: log,
    batchSize: 5000,
    delayMs: 0,
    backoff: { baseMs: 10, maxMs: 50 },
    retryAfterMaxMs: 10_000,
    requestTimeoutMs: 2000,
    credentialsPollMs: 50,
    ...overrides,
  });
  await uploader.start();
  return { uploader, credentials };
}

async function until(check: () => boolean, timeoutMs = 10_000) {
  const start = Date.now();
  while (!check()) {
    if (Date.now() - start > timeoutMs) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 10));
  }
}

/** Pairs with the peer (as `pair` does) and saves the token in the data dir. */
async function pair() {
  const res = await fetch(`${peer.url}/on-reco/v1/gateway/pair`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ gateway_info: 'GW-0001', pin_code: '123456' }),
  });
  const { gateway_token } = (await res.json()) as { gateway_token: string };
  dataDir.writePairing({ server: peer.url, gateway_info: 'GW-0001', gateway_token, store_id: 'S0001', paired_at: new Date().toISOString() });
}

beforeEach(async () => {
  logs = [];
  peer = new TestPeer({ storeId: 'S0001' });
  await peer.start();
  dataDir = new DataDir(mkdtempSync(path.join(tmpdir(), 'gw-upload-')));
  await pair();
  buffer = new ReadingBuffer({ file: dataDir.path('buffer.sqlite'), maxRows: 100_000, warnRatio: 0.8, logger: logger() });
  await buffer.start();
  uploader = null;
});

afterEach(async () => {
  await uploader?.stop();
  await buffer.stop();
  await peer.stop();
});

describe('uploader against the protocol test peer', () => {
  it('sends gzip batches of at most 5,000, oldest first, back-to-back, and deletes what was answered', async () => {
    buffer.insert(readings(12_000));
    // A pause between batches would be the upload delay: one far longer than three batches take, even on a loaded machine.
    const delayMs = 60_000;
    await startUploader({ delayMs });
    await uploader!.whenDrained();
    expect(buffer.depth).toBe(0);
    expect(peer.stored.size).toBe(12_000);
    expect(peer.readingsRequests.map((r) => [r.count, r.gzip])).toEqual([[5000, true], [5000, true], [2000, true]]);
    const spanMs = peer.readingsRequests[2].at - peer.readingsRequests[0].at;
    expect(spanMs, `three batches took ${spanMs} ms: no pause between them (the delay is ${delayMs} ms)`).toBeLessThan(delayMs / 4);
    const sent = [...peer.stored.values()].map((r) => r.measured_at);
    expect(sent).toEqual([...sent].sort()); // oldest first
    expect(uploader!.status().lastAttempt).toMatchObject({ ok: true, readings: 2000, accepted: 2000 });
  });

  it('deletes duplicates and rejected readings too, and logs the rejects', async () => {
    const batch = readings(3);
    buffer.insert(batch);
    await startUploader();
    await uploader!.whenDrained();
    // The same readings again (a crash before the delete), plus an invalid one.
    buffer.insert([...batch, { ...readings(1, 'A4:C1:38:00:00:02', 50)[0], temperature: 999 }]);
    await uploader!.whenDrained();
    expect(buffer.depth).toBe(0);
    expect(uploader!.status().lastAttempt).toMatchObject({ ok: true, readings: 4, accepted: 0, duplicates: 3, rejected: 1 });
    const reject = logs.find((l) => l.msg.includes('rejected a reading'));
    expect(reject).toMatchObject({ reason: 'temperature out of range', serialNo: 'A4:C1:38:00:00:02' });
    expect(peer.stored.size).toBe(3);
  });

  it('retries on 500 and dropped connections until answered, keeping every reading meanwhile', async () => {
    buffer.insert(readings(10));
    peer.misbehaviours.push({ status: 500 }, { drop: true }, { status: 502 }, { drop: true });
    await startUploader();
    await uploader!.whenDrained();
    expect(peer.readingsRequests.map((r) => r.status)).toEqual([500, 0, 502, 0, 200]);
    expect(peer.stored.size).toBe(10);
    // Each drop came on the connection kept alive from the answer before: the client sent the
    // batch again at once on a new one (api-client.ts), so only the 500 and the 502 waited a retry.
    expect(logs.filter((l) => l.msg === 'upload failed; will retry').map((l) => String(l.failure))).toEqual([expect.stringContaining('500'), expect.stringContaining('502')]);
  });

  it('re-sends a batch whose answer was lost; the server counts it as duplicates, never twice', async () => {
    buffer.insert(readings(10));
    peer.misbehaviours.push({ storeThenDrop: true });
    await startUploader();
    await uploader!.whenDrained();
    expect(peer.stored.size).toBe(10);
    expect(uploader!.status().lastAttempt).toMatchObject({ ok: true, accepted: 0, duplicates: 10 });
    for (const copies of peer.received.values()) expect(new Set(copies.map((c) => JSON.stringify(c))).size).toBe(1);
  });

  it('honours Retry-After on 429', async () => {
    buffer.insert(readings(5));
    peer.misbehaviours.push({ status: 429, retryAfter: '1' });
    await startUploader();
    await uploader!.whenDrained();
    const [limited, ok] = peer.readingsRequests;
    expect(limited.status).toBe(429);
    expect(ok.at - limited.at).toBeGreaterThanOrEqual(950); // backoff alone would be <= 50 ms
    expect(peer.stored.size).toBe(5);
  });

  it('on 401 stops uploading, logs loudly, keeps buffering, and resumes with a new token from pair', async () => {
    buffer.insert(readings(5));
    peer.revoked = true;
    const { credentials } = await startUploader();
    await until(() => uploader!.status().phase === 'token-revoked');
    expect(credentials.revoked).toBe(true);
    expect(logs.some((l) => l.level === 50 && /TOKEN REVOKED/.test(l.msg))).toBe(true);
    const requests = peer.readingsRequests.length;
    let looks = 0;
    const reload = credentials.reload.bind(credentials);
    credentials.reload = () => {
      looks += 1;
      return reload();
    };
    buffer.insert(readings(5, 'A4:C1:38:00:00:01', 100));
    // Three more looks at its credentials with readings waiting: each time it found itself revoked.
    await until(() => looks >= 3);
    expect(peer.readingsRequests.length).toBe(requests); // no more uploads while revoked
    expect(buffer.depth).toBe(10); // still buffering

    // Pairing again writes a new token; the uploader picks it up without a restart.
    await pair();
    await uploader!.whenDrained();
    expect(credentials.revoked).toBe(false);
    expect(peer.stored.size).toBe(10);
  });

  it('sends buffer_overflow with the next upload after an overflow, once', async () => {
    const small = new ReadingBuffer({ file: dataDir.path('small.sqlite'), maxRows: 5, warnRatio: 0.8, logger: logger() });
    await small.start();
    try {
      small.insert(readings(8));
      expect(small.overflowPending()).toBe(true);
      await startUploader({ buffer: small, batchSize: 2 });
      await uploader!.whenDrained();
      expect(peer.readingsRequests.map((r) => r.bufferOverflow)).toEqual([true, false, false]);
      expect(small.overflowPending()).toBe(false);
      await uploader!.stop();
      uploader = null;
    } finally {
      await small.stop();
    }
  });

  it('halves the batch when the server refuses it as a whole (413)', async () => {
    buffer.insert(readings(40));
    peer.misbehaviours.push({ status: 413 });
    await startUploader({ batchSize: 40 });
    await uploader!.whenDrained();
    expect(peer.readingsRequests.map((r) => [r.status, r.count])).toEqual([[413, 40], [200, 20], [200, 20]]);
  });

  it('uploads new readings as they are recorded', async () => {
    await startUploader();
    buffer.insert(readings(3));
    await until(() => peer.stored.size === 3);
    buffer.insert(readings(3, 'A4:C1:38:00:00:01', 10));
    await until(() => peer.stored.size === 6);
    // The peer stores a batch before it answers; the buffer lets it go once the answer is read.
    await until(() => buffer.depth === 0);
  });
});
