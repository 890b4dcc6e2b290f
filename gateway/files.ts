// Small files in the data dir, written atomically: a reader (or a crash) sees the old file or
// the new one, never half of one.
import { closeSync, fchmodSync, fsyncSync, mkdirSync, openSync, readFileSync, renameSync, writeSync } from 'node:fs';
import path from 'node:path';

export function ensureDataDir(dir: string): void {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
}

/** Writes `data` to `file` through a temp file and rename. `durable` also fsyncs file and directory. */
export function writeFileAtomic(file: string, data: string, options: { mode?: number; durable?: boolean } = {}): void {
  const tmp = `${file}.${process.pid}.tmp`;
  const fd = openSync(tmp, 'w', options.mode ?? 0o644);
  try {
    if (options.mode !== undefined) fchmodSync(fd, options.mode);
    writeSync(fd, data);
    if (options.durable) fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  renameSync(tmp, file);
  if (options.durable) {
    const dirFd = openSync(path.dirname(file), 'r');
    try {
      fsyncSync(dirFd);
    } finally {
      closeSync(dirFd);
    }
  }
}

/** Parsed JSON of `file`, or null when it does not exist. Other errors throw. */
export function readJsonFile(file: string): unknown {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw e;
  }
  return JSON.parse(text);
}
