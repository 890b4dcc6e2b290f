// The durable buffer: every reading stays on disk until the server has answered for it.
// SQLite in WAL mode with synchronous=FULL: a committed insert survives kill -9 and power loss.
// Key (serial_no, measured_at): re-aggregating an interval after a crash never doubles a row.
import { existsSync } from 'node:fs';
import Database from 'better-sqlite3';
import type { Logger } from './log';
import type { Reading } from './aggregator';

/** A reading as it comes back from the buffer. */
export type BufferedReading = Reading;

export interface BufferOptions {
  file: string;
  maxRows: number;
  /** Warn once the buffer is this full (0-1). */
  warnRatio: number;
  logger: Logger;
}

export interface InsertResult {
  inserted: number;
  /** Oldest readings dropped to stay within maxRows. */
  dropped: number;
}

export interface BufferStats {
  depth: number;
  oldest: string | null;
  newest: string | null;
  overflowPending: boolean;
  droppedTotal: number;
  maxRows: number;
}

const SCHEMA = `
CREATE TABLE IF NOT EXISTS readings (
  serial_no    TEXT    NOT NULL,
  measured_at  TEXT    NOT NULL,
  temperature  REAL,
  error        INTEGER NOT NULL,
  battery      INTEGER,
  rssi         INTEGER,
  PRIMARY KEY (serial_no, measured_at)
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS readings_oldest_first ON readings (measured_at, serial_no);
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID;
`;

interface Row {
  serial_no: string;
  measured_at: string;
  temperature: number | null;
  error: number;
  battery: number | null;
  rssi: number | null;
}

const META_CHECKPOINT = 'aggregated_before';
const META_OVERFLOW = 'overflow_pending';
const META_DROPPED = 'dropped_total';

export class ReadingBuffer {
  private db: Database.Database | null = null;
  private depthCache = 0;
  private warned = false;
  private statements!: ReturnType<ReadingBuffer['prepare']>;
  private listeners: (() => void)[] = [];

  constructor(private readonly options: BufferOptions) {}

  async start(): Promise<void> {
    const db = new Database(this.options.file);
    this.db = db;
    db.pragma('busy_timeout = 5000');
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = FULL');
    db.exec(SCHEMA);
    this.statements = this.prepare(db);
    this.depthCache = (this.statements.count.get() as { n: number }).n;
    this.warned = this.depthCache >= this.warnThreshold();
  }

  async stop(): Promise<void> {
    const db = this.db;
    this.db = null;
    if (db?.open) {
      db.pragma('wal_checkpoint(TRUNCATE)');
      db.close();
    }
  }

  /** Called after every insert that added rows (the uploader wakes up). */
  onInsert(listener: () => void): void {
    this.listeners.push(listener);
  }

  /**
   * Stores readings (a reading already there is kept as it is) and, in the same transaction,
   * the aggregation checkpoint. Drops the oldest rows, loudly, only when the buffer is full.
   */
  insert(readings: readonly Reading[], checkpoint?: number): InsertResult {
    const s = this.statements;
    const result = this.handle().transaction((): InsertResult => {
      let inserted = 0;
      for (const r of readings) {
        inserted += s.insert.run(r.serialNo, r.measuredAt, r.temperature, r.error ? 1 : 0, r.battery, r.rssi).changes;
      }
      let dropped = 0;
      const excess = this.depthCache + inserted - this.options.maxRows;
      if (excess > 0) {
        dropped = s.dropOldest.run(excess).changes;
        s.setMeta.run(META_OVERFLOW, '1');
        s.addMeta.run(META_DROPPED, String(dropped), String(dropped));
      }
      if (checkpoint !== undefined && Number.isFinite(checkpoint)) {
        s.setMeta.run(META_CHECKPOINT, String(checkpoint));
      }
      return { inserted, dropped };
    })();
    this.depthCache += result.inserted - result.dropped;
    this.reportFill(result);
    if (result.inserted > 0) for (const listener of this.listeners) listener();
    return result;
  }

  /** Up to `limit` readings, oldest first. */
  oldest(limit: number): BufferedReading[] {
    return (this.statements.oldest.all(limit) as Row[]).map((row) => ({
      serialNo: row.serial_no,
      measuredAt: row.measured_at,
      temperature: row.temperature,
      error: row.error === 1,
      battery: row.battery,
      rssi: row.rssi,
    }));
  }

  /**
   * Deletes readings the server answered for. `clearOverflow` when the answered upload carried
   * the buffer_overflow flag: the console has been told.
   */
  remove(readings: readonly Pick<Reading, 'serialNo' | 'measuredAt'>[], clearOverflow: boolean): number {
    const s = this.statements;
    const removed = this.handle().transaction(() => {
      let n = 0;
      for (const r of readings) n += s.remove.run(r.serialNo, r.measuredAt).changes;
      if (clearOverflow) s.deleteMeta.run(META_OVERFLOW);
      return n;
    })();
    this.depthCache -= removed;
    if (this.warned && this.depthCache < this.warnThreshold() * 0.9) this.warned = false;
    return removed;
  }

  get depth(): number {
    return this.depthCache;
  }

  /** The saved aggregation checkpoint (epoch ms), or -Infinity. */
  checkpoint(): number {
    const value = this.meta(META_CHECKPOINT);
    return value === null ? Number.NEGATIVE_INFINITY : Number(value);
  }

  /** Readings dropped because the buffer was full, since it was created. */
  droppedTotal(): number {
    return Number(this.meta(META_DROPPED) ?? 0);
  }

  /** The oldest reading's measured_at, or null when empty. */
  oldestMeasuredAt(): string | null {
    return this.oldest(1)[0]?.measuredAt ?? null;
  }

  get maxRows(): number {
    return this.options.maxRows;
  }

  overflowPending(): boolean {
    return this.meta(META_OVERFLOW) === '1';
  }

  private meta(key: string): string | null {
    const row = this.statements.getMeta.get(key) as { value: string } | undefined;
    return row?.value ?? null;
  }

  private warnThreshold(): number {
    return Math.floor(this.options.maxRows * this.options.warnRatio);
  }

  private reportFill(result: InsertResult): void {
    const log = this.options.logger;
    if (result.dropped > 0) {
      log.error(
        { dropped: result.dropped, depth: this.depthCache, maxRows: this.options.maxRows },
        'BUFFER FULL: dropped the oldest readings; the next upload tells the console (buffer_overflow)',
      );
    } else if (!this.warned && this.depthCache >= this.warnThreshold()) {
      this.warned = true;
      log.warn(
        { depth: this.depthCache, maxRows: this.options.maxRows },
        'buffer is filling up: uploads are not keeping up; the oldest readings will be dropped when it is full',
      );
    }
  }

  private handle(): Database.Database {
    if (!this.db) throw new Error('buffer is not open');
    return this.db;
  }

  private prepare(db: Database.Database) {
    return {
      count: db.prepare('SELECT count(*) AS n FROM readings'),
      insert: db.prepare(
        `INSERT INTO readings (serial_no, measured_at, temperature, error, battery, rssi)
         VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING`,
      ),
      oldest: db.prepare(
        'SELECT serial_no, measured_at, temperature, error, battery, rssi FROM readings ORDER BY measured_at, serial_no LIMIT ?',
      ),
      remove: db.prepare('DELETE FROM readings WHERE serial_no = ? AND measured_at = ?'),
      dropOldest: db.prepare(
        `DELETE FROM readings WHERE (serial_no, measured_at) IN
           (SELECT serial_no, measured_at FROM readings ORDER BY measured_at, serial_no LIMIT ?)`,
      ),
      getMeta: db.prepare('SELECT value FROM meta WHERE key = ?'),
      setMeta: db.prepare('INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value'),
      addMeta: db.prepare(
        `INSERT INTO meta (key, value) VALUES (?, ?)
         ON CONFLICT (key) DO UPDATE SET value = CAST(CAST(value AS INTEGER) + CAST(? AS INTEGER) AS TEXT)`,
      ),
      deleteMeta: db.prepare('DELETE FROM meta WHERE key = ?'),
    };
  }
}

/**
 * Depth, oldest reading and overflow state of a buffer file, read without disturbing the daemon
 * that may be writing it (the `status` command). Null when there is no buffer yet.
 */
export function readBufferStats(file: string, maxRows: number): BufferStats | null {
  if (!existsSync(file)) return null;
  const db = new Database(file, { readonly: true, fileMustExist: true });
  try {
    db.pragma('busy_timeout = 5000');
    const range = db
      .prepare('SELECT count(*) AS n, min(measured_at) AS oldest, max(measured_at) AS newest FROM readings')
      .get() as { n: number; oldest: string | null; newest: string | null };
    const meta = new Map(
      (db.prepare('SELECT key, value FROM meta').all() as { key: string; value: string }[]).map((r) => [r.key, r.value]),
    );
    return {
      depth: range.n,
      oldest: range.oldest,
      newest: range.newest,
      overflowPending: meta.get(META_OVERFLOW) === '1',
      droppedTotal: Number(meta.get(META_DROPPED) ?? 0),
      maxRows,
    };
  } finally {
    db.close();
  }
}
