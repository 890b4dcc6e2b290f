import type { Db } from '~/db/db.server';
import { citusInstalled, shardsOneAfterAnother } from '~/db/distribute.server';
import { addToBuckets } from '~/models/measurement-buckets.server';
import type { NewMeasurement } from '~/models/measurements.server';
import { logger } from './logger.server';
import { type CheckedBatch, type IngestResult, checkBatch, recordCommitted, storeCheckedBatch, storeCheckedPosts } from './ingest.server';

// Group commit for gateway posts (docs/decisions/220): posts gather for a short window (or until
// enough readings wait) and one writer stores them all in one transaction, in statements shared
// by every post, then adds every reading the batch stored to its 10-minute bucket in one statement
// (docs/decisions/283), then answers each post with its own counts after the commit. When the batch
// fails it is written post by post: a post whose work fails is taken out and answered with its
// error, the others run again without it, so one bad post never fails the rest, and no post is
// answered before its readings are committed.

export interface IngestWriterOptions {
  /** How long the first post of a batch waits for others. */
  windowMs: number;
  /** A batch is written at once when this many readings wait. */
  maxReadings: number;
  /** Writers side by side; a store always goes to the same one, so its posts keep their order. */
  lanes: number;
}

interface Pending {
  storeId: string;
  checked: CheckedBatch;
  now: Date;
  resolve(result: IngestResult): void;
  reject(error: unknown): void;
}

class Lane {
  private waiting: Pending[] = [];
  private readings = 0;
  private timer: NodeJS.Timeout | null = null;
  private writing: Promise<void> = Promise.resolve();

  constructor(
    private readonly db: Db,
    private readonly options: IngestWriterOptions,
  ) {}

  add(pending: Pending) {
    this.waiting.push(pending);
    this.readings += pending.checked.valid.length;
    if (this.readings >= this.options.maxReadings) this.cut();
    else this.timer ??= setTimeout(() => this.cut(), this.options.windowMs);
  }

  /** Closes the waiting batch; it is written once the lane's previous batch is committed. */
  private cut() {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    const batch = this.waiting;
    this.waiting = [];
    this.readings = 0;
    this.writing = this.writing.then(() => writeBatch(this.db, batch));
  }
}

/**
 * One transaction for the batch, its statements shared by every post (storeCheckedPosts). When it
 * fails, the batch is written again post by post to find the post at fault.
 */
async function writeBatch(db: Db, batch: Pending[]): Promise<void> {
  let results: IngestResult[];
  try {
    const citus = await onCitus(db);
    results = await db.transaction().execute(async (trx) => {
      if (citus) await shardsOneAfterAnother(trx);
      const written = await storeCheckedPosts(trx, batch);
      // Every post's stores are locked by now, so the bucket rows (in key order) are this batch's alone.
      await addToBuckets(trx, written.map((post, index) => ({ storeId: batch[index].storeId, readings: post.stored })));
      return written.map((post) => post.result);
    });
  } catch (error) {
    logger.child({ module: 'ingest' }).warn({ posts: batch.length, err: error }, 'the batch failed; writing it post by post');
    await writePostByPost(db, batch);
    return;
  }
  batch.forEach((post, index) => answer(post, results[index]));
}

function answer(post: Pending, result: IngestResult) {
  recordCommitted(post.checked, result, post.now);
  post.resolve(result);
}

/** A post that fails is answered with its error and the rest written again without it. */
async function writePostByPost(db: Db, batch: Pending[]): Promise<void> {
  // Stores locked in one order by every writer: two web processes' batches cannot deadlock on them.
  let posts = [...batch].sort((a, b) => (a.storeId < b.storeId ? -1 : a.storeId > b.storeId ? 1 : 0));
  while (posts.length > 0) {
    const attempt: { failed: { post: Pending; error: unknown } | null } = { failed: null };
    try {
      const citus = await onCitus(db);
      const results = await db.transaction().execute(async (trx) => {
        if (citus) await shardsOneAfterAnother(trx);
        const answers: IngestResult[] = [];
        const stored: { storeId: string; readings: readonly NewMeasurement[] }[] = [];
        for (const post of posts) {
          try {
            const written = await storeCheckedBatch(trx, post.storeId, post.checked, post.now);
            answers.push(written.result);
            stored.push({ storeId: post.storeId, readings: written.stored });
          } catch (error) {
            attempt.failed = { post, error };
            throw error;
          }
        }
        await addToBuckets(trx, stored);
        return answers;
      });
      posts.forEach((post, index) => answer(post, results[index]));
      return;
    } catch (error) {
      const culprit = attempt.failed;
      if (culprit === null) {
        // BEGIN or COMMIT failed: nothing of the batch is stored, and every post is told so.
        for (const post of posts) post.reject(error);
        return;
      }
      culprit.post.reject(culprit.error);
      posts = posts.filter((post) => post !== culprit.post);
    }
  }
}

export class IngestWriter {
  private readonly lanes: Lane[];

  constructor(db: Db, options: IngestWriterOptions) {
    this.lanes = Array.from({ length: Math.max(1, options.lanes) }, () => new Lane(db, options));
  }

  /** Checks a post's readings, queues them, and resolves with the post's counts once they are committed. */
  submit(storeId: string, raw: readonly unknown[], now: Date): Promise<IngestResult> {
    const checked = checkBatch(raw, now);
    return new Promise((resolve, reject) => this.lanes[laneOf(storeId, this.lanes.length)].add({ storeId, checked, now, resolve, reject }));
  }
}

function laneOf(storeId: string, lanes: number): number {
  let hash = 0;
  for (let i = 0; i < storeId.length; i += 1) hash = (hash * 31 + storeId.charCodeAt(i)) | 0;
  return Math.abs(hash) % lanes;
}

const citusOf = new WeakMap<Db, Promise<boolean>>();

/** Whether the database is a Citus coordinator, asked once a process (a failed question is asked again). */
function onCitus(db: Db): Promise<boolean> {
  let answer = citusOf.get(db);
  if (!answer) {
    answer = citusInstalled(db);
    answer.catch(() => citusOf.delete(db));
    citusOf.set(db, answer);
  }
  return answer;
}

const writers = new WeakMap<Db, IngestWriter>();

/** The process's writer for this database. */
export function ingestWriterOf(db: Db, options: IngestWriterOptions): IngestWriter {
  let writer = writers.get(db);
  if (!writer) {
    writer = new IngestWriter(db, options);
    writers.set(db, writer);
  }
  return writer;
}
