import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import type { Reading } from '../../../gateway/aggregator';
import { ReadingBuffer, readBufferStats } from '../../../gateway/buffer';
import { createLogger } from '../../../gateway/log';

const opened: ReadingBuffer[] = [];
afterEach(async () => {
  for (const b of opened.splice(0)) await b.stop();
});

function capture() {
  const lines: { level: number; msg: string }[] = [];
  const stream = new Writable({
    write(chunk, _enc, done) {
      lines.push(JSON.parse(String(chunk)));
      done();
    },
  });
  return { lines, logger: createLogger('info', stream) };
}

async function openBuffer(file: string, maxRows = 1000, logger = capture().logger) {
  const buffer = new ReadingBuffer({ file, maxRows, warnRatio: 0.8, logger });
  await buffer.start();
  opened.push(buffer);
  return buffer;
}

const tempFile = () => path.join(mkdtempSync(path.join(tmpdir(), 'gw-buffer-')), 'buffer.sqlite');

function reading(serialNo: string, minute: number, temperature: number | null = 4.2): Reading {
  return {
    serialNo,
    measuredAt: `2026011512${String(minute).padStart(2, '0')}00`,
    temperature,
    error: temperature === null,
    battery: 90,
    rssi: -70,
  };
}

describe('SQLite reading buffer', () => {
  it('keeps readings across a reopen, oldest first', async () => {
    const file = tempFile();
    const buffer = await openBuffer(file);
    buffer.insert([reading('B', 2), reading('A', 1), reading('B', 1), reading('A', 3, null)]);
    await buffer.stop();
    opened.pop();

    const again = await openBuffer(file);
    expect(again.depth).toBe(4);
    expect(again.oldest(10).map((r) => `${r.measuredAt.slice(10, 12)}${r.serialNo}`)).toEqual(['01A', '01B', '02B', '03A']);
    expect(again.oldest(10)[3]).toEqual({ serialNo: 'A', measuredAt: '20260115120300', temperature: null, error: true, battery: 90, rssi: -70 });
    expect(again.oldest(2)).toHaveLength(2);
  });

  it('runs in WAL mode with synchronous=FULL', async () => {
    const buffer = await openBuffer(tempFile());
    const db = (buffer as unknown as { db: { pragma(q: string, o: { simple: boolean }): unknown } }).db;
    expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
    expect(db.pragma('synchronous', { simple: true })).toBe(2); // FULL
  });

  it('never holds a (serial_no, measured_at) twice: a re-aggregated interval keeps the first reading', async () => {
    const buffer = await openBuffer(tempFile());
    expect(buffer.insert([reading('A', 1, 4.2)]).inserted).toBe(1);
    expect(buffer.insert([reading('A', 1, 9.9), reading('A', 2)]).inserted).toBe(1);
    expect(buffer.depth).toBe(2);
    expect(buffer.oldest(1)[0].temperature).toBe(4.2);
  });

  it('deletes only the readings it is told were answered for', async () => {
    const buffer = await openBuffer(tempFile());
    buffer.insert([reading('A', 1), reading('A', 2), reading('A', 3)]);
    expect(buffer.remove([reading('A', 1), reading('A', 3), reading('Z', 9)], false)).toBe(2);
    expect(buffer.oldest(10).map((r) => r.measuredAt)).toEqual(['20260115120200']);
    expect(buffer.depth).toBe(1);
  });

  it('saves the aggregation checkpoint with the readings', async () => {
    const file = tempFile();
    const buffer = await openBuffer(file);
    expect(buffer.checkpoint()).toBe(Number.NEGATIVE_INFINITY);
    buffer.insert([reading('A', 1)], 1_768_446_120_000);
    await buffer.stop();
    opened.pop();
    expect((await openBuffer(file)).checkpoint()).toBe(1_768_446_120_000);
  });

  it('warns before it is full, then drops the oldest loudly and flags the overflow for the next upload', async () => {
    const log = capture();
    const buffer = await openBuffer(tempFile(), 10, log.logger);
    buffer.insert(Array.from({ length: 8 }, (_, i) => reading('A', i)));
    expect(log.lines.filter((l) => l.level === 40).map((l) => l.msg)).toEqual([expect.stringMatching(/filling up/)]);
    expect(buffer.overflowPending()).toBe(false);

    const result = buffer.insert([reading('A', 8), reading('A', 9), reading('A', 10), reading('A', 11)]);
    expect(result).toEqual({ inserted: 4, dropped: 2 });
    expect(buffer.depth).toBe(10);
    expect(buffer.oldest(1)[0].measuredAt).toBe('20260115120200'); // minutes 0 and 1 were dropped
    expect(buffer.overflowPending()).toBe(true);
    expect(log.lines.some((l) => l.level === 50 && /BUFFER FULL/.test(l.msg))).toBe(true);

    // The flag stays until an upload that carried it is answered.
    buffer.remove(buffer.oldest(5), false);
    expect(buffer.overflowPending()).toBe(true);
    buffer.remove(buffer.oldest(5), true);
    expect(buffer.overflowPending()).toBe(false);
  });

  it('reports depth, oldest reading and overflow to a reader while open (status)', async () => {
    const file = tempFile();
    expect(readBufferStats(file, 10)).toBeNull();
    const buffer = await openBuffer(file, 3);
    buffer.insert([reading('A', 5), reading('A', 2), reading('B', 3), reading('B', 4)]);
    expect(readBufferStats(file, 3)).toEqual({
      depth: 3,
      oldest: '20260115120300',
      newest: '20260115120500',
      overflowPending: true,
      droppedTotal: 1,
      maxRows: 3,
    });
  });
});
