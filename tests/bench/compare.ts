// Before and after in one run: the same bench in a checkout of REV and in this tree, one after
// the other and then again in the other order (so a machine that slows down or warms up during
// the run favours neither), and the JSON line each printed.
//   npx tsx tests/bench/compare.ts REV BENCH [BENCH …]     e.g. compare.ts 623c97a ingest dashboard graph
// Each bench's own variables pass through (DAYS=30 npx tsx tests/bench/compare.ts …).
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { machine } from '../support/console';

const [rev, ...benches] = process.argv.slice(2);
if (!rev || benches.length === 0) {
  console.error('usage: npx tsx tests/bench/compare.ts REV BENCH [BENCH …]');
  process.exit(2);
}

const here = process.cwd();
const before = mkdtempSync(path.join(tmpdir(), 'onreco-before-'));

function git(...args: string[]): void {
  const { status } = spawnSync('git', args, { stdio: 'inherit' });
  if (status !== 0) throw new Error(`git ${args.join(' ')} failed`);
}

/** Runs one bench in `tree` and returns the last JSON object it printed. */
function runBench(tree: string, bench: string): unknown {
  const file = path.join(tree, 'tests/bench', `${bench}.ts`);
  if (!existsSync(file)) throw new Error(`${file} does not exist`);
  const run = spawnSync(path.join(here, 'node_modules/.bin/tsx'), [file], { cwd: tree, encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'], maxBuffer: 64 * 2 ** 20 });
  if (run.status !== 0) throw new Error(`${bench} in ${tree} exited ${run.status}:\n${run.stdout}`);
  // The last JSON object it printed (on one line, or pretty-printed from a line that starts with
  // '{'), leaving out log lines (pino's, with level and msg).
  const lines = run.stdout.split('\n');
  const parsed = (text: string): unknown => {
    try {
      const value = JSON.parse(text) as Record<string, unknown>;
      return 'level' in value && 'msg' in value ? undefined : value;
    } catch {
      return undefined;
    }
  };
  for (let start = lines.length - 1; start >= 0; start -= 1) {
    if (!lines[start].startsWith('{')) continue;
    for (let end = start + 1; end <= lines.length; end += 1) {
      if (!lines[end - 1].startsWith('}') && end - 1 !== start) continue;
      const found = parsed(lines.slice(start, end).join('\n'));
      if (found) return found;
    }
  }
  throw new Error(`${bench} in ${tree} printed no JSON object:\n${run.stdout}`);
}

try {
  git('worktree', 'add', '--detach', '-q', before, rev);
  symlinkSync(path.join(here, 'node_modules'), path.join(before, 'node_modules'));
  const results: Record<string, { before: unknown[]; after: unknown[] }> = {};
  for (const bench of benches) {
    const result = { before: [] as unknown[], after: [] as unknown[] };
    result.before.push(runBench(before, bench));
    result.after.push(runBench(here, bench));
    result.after.push(runBench(here, bench));
    result.before.push(runBench(before, bench));
    results[bench] = result;
    console.error(`${bench}: done`);
  }
  console.log(JSON.stringify({ machine: machine(), before: rev, after: 'working tree', results }, null, 1));
} finally {
  rmSync(before, { recursive: true, force: true });
  spawnSync('git', ['worktree', 'prune']);
}
