// kill -9 at random moments: the daemon (a child process, through bin/onreco-gateway.js) replays
// the capture against the protocol test peer, which misbehaves now and then (5xx, 429, dropped
// connections, answers lost after storing). It is killed again and again, then run to the end.
// Nothing may be lost, and the server may never be sent two different readings for one
// (serial_no, measured_at): it holds each exactly once.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readBufferStats } from '../../../gateway/buffer';
import { runCli } from '../../../gateway/cli';
import { formatMeasuredAt, intervalStart } from '../../../gateway/time';
import { seededRandom, testSeed } from '../../support/seed';
import { TestPeer } from './support/test-peer';

const ROOT = path.resolve(__dirname, '../../..');
const FIXTURES = path.join(ROOT, 'tests/fixtures/gateway');
const CAPTURE = path.join(FIXTURES, 'store-capture.jsonl.gz');
const STORE_CONFIG = JSON.parse(readFileSync(path.join(FIXTURES, 'store-config.json'), 'utf8')) as { sensors: { serial_no: string }[] };
const SEED = testSeed('gateway crash test', 20_261_124);
const KILLS = 6;

let peer: TestPeer;
let dataDir: string;
const random = seededRandom(SEED);

beforeAll(async () => {
  peer = new TestPeer({ config: STORE_CONFIG, chaos: { probability: 0.3, random }, latencyMs: 100 });
  await peer.start();
  dataDir = mkdtempSync(path.join(tmpdir(), 'gw-crash-'));
  const silent = () => undefined;
  const code = await runCli(['pair', '--data-dir', dataDir, '--server', peer.url, '--gateway-info', 'GW-0001', '--pin', '123456'], {
    stdout: silent,
    stderr: silent,
    env: {},
    waitForStop: () => new Promise(() => undefined),
    exitCode: 0,
  });
  expect(code).toBe(0);
});
afterAll(() => peer.stop());

/**
 * Runs the daemon; once `ready()` holds (polled every 5 ms), waits `extraMs` more and kills it with
 * SIGKILL, unless it exited first. Kill moments are tied to what the daemon is doing, not to the
 * wall clock, so the test means the same on a loaded machine.
 */
function daemon(kill: { ready: () => boolean; extraMs: number } | null) {
  const child = spawn(
    process.execPath,
    [
      path.join(ROOT, 'bin/onreco-gateway.js'),
      'run',
      '--data-dir', dataDir,
      '--source', `replay:${CAPTURE}`,
      '--exit-when-drained',
      '--log-level', 'warn',
      '--upload-batch-size', '250',
      '--upload-delay-ms', '0',
      '--retry-base-ms', '20',
      '--retry-max-ms', '200',
      '--status-interval-seconds', '1',
    ],
    { cwd: ROOT, stdio: ['ignore', 'ignore', 'pipe'] },
  );
  let stderr = '';
  child.stderr.on('data', (c) => (stderr += String(c)));
  let poll: NodeJS.Timeout | null = null;
  let timer: NodeJS.Timeout | null = null;
  if (kill) {
    poll = setInterval(() => {
      if (!kill.ready()) return;
      clearInterval(poll!);
      poll = null;
      timer = setTimeout(() => child.kill('SIGKILL'), kill.extraMs);
    }, 5);
  }
  return new Promise<{ code: number | null; signal: NodeJS.Signals | null; stderr: string }>((resolve) => {
    child.on('exit', (code, signal) => {
      if (poll) clearInterval(poll);
      if (timer) clearTimeout(timer);
      resolve({ code, signal, stderr });
    });
  });
}

const mtime = (file: string) => {
  try {
    return statSync(file).mtimeMs;
  } catch {
    return 0;
  }
};

/** The readings of an uninterrupted run (in-process, well-behaved peer). */
async function referenceRun() {
  const reference = new TestPeer({ config: STORE_CONFIG });
  await reference.start();
  const dir = mkdtempSync(path.join(tmpdir(), 'gw-crash-ref-'));
  const ctx = { stdout: () => undefined, stderr: () => undefined, env: {}, waitForStop: () => new Promise<string>(() => undefined), exitCode: 0 };
  try {
    await runCli(['pair', '--data-dir', dir, '--server', reference.url, '--gateway-info', 'GW-0001', '--pin', '123456'], { ...ctx });
    const code = await runCli(['run', '--data-dir', dir, '--source', `replay:${CAPTURE}`, '--exit-when-drained', '--log-level', 'silent'], { ...ctx });
    expect(code).toBe(0);
    return reference.stored;
  } finally {
    await reference.stop();
  }
}

describe('crash safety (kill -9 at random moments)', () => {
  it(`loses nothing and never doubles a reading (seed ${SEED})`, async () => {
    // Kill runs until KILLS kills landed while work was pending (or a run got through on its own).
    // Half the kills land while the capture is being replayed and recorded, half while an upload
    // is in flight (the peer holds each request 100 ms, and sometimes stores it and drops the answer).
    // A recording kill comes at most 300 ms after the first status write: a whole run takes about a
    // second, so a later kill would often find the work done and end the loop early.
    let killedWithWorkPending = 0;
    for (let runs = 0; killedWithWorkPending < KILLS && runs < 25; runs++) {
      const statusFile = path.join(dataDir, 'status.json');
      const since = Date.now();
      const requestsBefore = peer.readingsRequests.length + peer.inFlight;
      const midUpload = random() < 0.5;
      const nth = 1 + Math.floor(random() * 4);
      const kill = midUpload
        ? { ready: () => peer.readingsRequests.length + peer.inFlight >= requestsBefore + nth, extraMs: Math.floor(random() * 60) }
        : { ready: () => mtime(statusFile) >= since, extraMs: Math.floor(random() * 300) };
      const run = await daemon(kill);
      const pending = readBufferStats(path.join(dataDir, 'buffer.sqlite'), 1)?.depth ?? 0;
      if (process.env.GATEWAY_CRASH_TRACE) {
        console.log(`${midUpload ? `upload #${nth}` : 'recording'} +${kill.extraMs} ms: ${run.signal ?? run.code}; buffered ${pending}, server holds ${peer.stored.size}`);
      }
      if (run.signal !== 'SIGKILL') {
        expect(run.code, run.stderr).toBe(0);
        break;
      }
      if (pending > 0 || peer.stored.size < 3575) killedWithWorkPending += 1;
    }
    expect(killedWithWorkPending).toBeGreaterThanOrEqual(3);
    const final = await daemon(null);
    expect(final.code, final.stderr).toBe(0);

    const sensors = new Set(STORE_CONFIG.sensors.map((s) => s.serial_no));
    const expected = new Set<string>();
    for (const line of gunzipSync(readFileSync(CAPTURE)).toString('utf8').trim().split('\n')) {
      const { ts, address } = JSON.parse(line) as { ts: string; address: string };
      if (sensors.has(address)) expected.add(`${address}|${formatMeasuredAt(intervalStart(Date.parse(ts), 60_000))}`);
    }
    // Nothing lost, nothing extra.
    expect(peer.storedKeys()).toEqual([...expected].sort());
    // A reading sent again (after a kill, a lost answer) is the same reading, never a second version.
    for (const [key, copies] of peer.received) {
      expect(new Set(copies.map((c) => JSON.stringify(c))).size, key).toBe(1);
    }
    // The test did exercise re-sends.
    expect([...peer.received.values()].some((copies) => copies.length > 1)).toBe(true);
    // Same values as an uninterrupted run, but for the few intervals where a restart resumed:
    // the restarted process does not remember the frame repeated across the boundary, so it may
    // count one more sample there. Never a reading that a kill cut short (the replay checkpoint
    // makes a restart aggregate an interval from its start).
    const reference = await referenceRun();
    const differing = [...reference].filter(([key, r]) => JSON.stringify(peer.stored.get(key)) !== JSON.stringify(r));
    if (process.env.GATEWAY_CRASH_TRACE) console.log('differing from an uninterrupted run:', differing.length, differing.slice(0, 5));
    expect(differing.length).toBeLessThanOrEqual(20 * (killedWithWorkPending + 1));
    // And the buffer is empty.
    expect(readBufferStats(path.join(dataDir, 'buffer.sqlite'), 1)?.depth).toBe(0);
  }, 180_000);
});
