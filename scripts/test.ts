// `npm test`: the inner loop, in two rounds that fit a 2-core machine:
//   1. the type-check, the lint and the unit project side by side (and the console build the
//      api and e2e projects share);
//   2. the api, e2e-console and e2e-system projects side by side (each has its own database).
// `npm run test:system` (this script with --system): the crash, kill, multi-process and scale
// runs (tests/support/projects.ts), after the console build; .ci/run runs it after npm test.
// Each step's output is printed whole when it ends, then a table of how long each took. Exits
// non-zero when any step failed; a failed round stops the run. Arguments go to every vitest run
// (`npm test -- --reporter=verbose`).
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ensureConsoleBuild } from '../tests/support/console-build';
import { INNER_PROJECTS, SYSTEM_PROJECTS } from '../tests/support/projects';

interface Step {
  name: string;
  ok: boolean;
  seconds: number;
  tests?: { passed: number; failed: number; skipped: number };
  /** Tests that failed, and tests that passed only on a retry: named at the end of the run. */
  failures?: string[];
  retried?: string[];
}

interface JsonReport {
  numPassedTests: number;
  numFailedTests: number;
  numPendingTests: number;
  numTodoTests: number;
  testResults: { name: string; assertionResults: { fullName: string; status: string; failureMessages: string[] }[] }[];
}

// With a filter, a project may have no file that matches: that is not a failure.
const system = process.argv.includes('--system');
const args = process.argv.slice(2).filter((arg) => arg !== '--system');
const vitestArgs = args.length > 0 ? [...args, '--passWithNoTests'] : [];
const reports = mkdtempSync(path.join(tmpdir(), 'onreco-test-'));
const bin = (name: string) => path.resolve('node_modules/.bin', name);

/** Runs a command with its output kept, and prints the output when it ends. */
function command(name: string, file: string, args: string[]): Promise<Step> {
  const started = performance.now();
  console.log(`-- ${name}: started`);
  return new Promise((resolve) => {
    const child = spawn(file, args, { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, FORCE_COLOR: process.env.FORCE_COLOR ?? '1' } });
    const output: Buffer[] = [];
    child.stdout.on('data', (chunk: Buffer) => output.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => output.push(chunk));
    child.on('close', (code, signal) => {
      const step: Step = { name, ok: code === 0, seconds: (performance.now() - started) / 1000 };
      console.log(`\n== ${name} (${step.seconds.toFixed(1)} s, ${step.ok ? 'ok' : `failed: ${signal ?? `exit ${code}`}`})`);
      process.stdout.write(Buffer.concat(output));
      resolve(step);
    });
  });
}

/** One vitest project, with its counts read from vitest's JSON report. */
async function project(name: string): Promise<Step> {
  const report = path.join(reports, `${name}.json`);
  const step = await command(`vitest ${name}`, bin('vitest'), ['run', '--project', name, '--reporter=default', '--reporter=json', `--outputFile.json=${report}`, ...vitestArgs]);
  try {
    const counts = JSON.parse(readFileSync(report, 'utf8')) as JsonReport;
    step.tests = { passed: counts.numPassedTests, failed: counts.numFailedTests, skipped: counts.numPendingTests + counts.numTodoTests };
    step.failures = testsNamed(counts, (status) => status === 'failed');
    // vitest keeps the errors of the failed tries of a test that passed on a retry
    step.retried = testsNamed(counts, (status, errors) => status === 'passed' && errors.length > 0);
  } catch {
    // no report: the run failed before it wrote one, and the step says so already
  }
  return step;
}

/** "file > test: the first lines of its first error" for each test the predicate picks. */
function testsNamed(report: JsonReport, picked: (status: string, errors: string[]) => boolean): string[] {
  return report.testResults.flatMap((file) =>
    file.assertionResults
      .filter((test) => picked(test.status, test.failureMessages))
      .map((test) => `${path.relative(process.cwd(), file.name)} > ${test.fullName}: ${headOf(test.failureMessages[0] ?? '')}`),
  );
}

/** The first lines of an error (the message and what it lists, before the stack), each cut short. */
function headOf(message: string): string {
  // eslint-disable-next-line no-control-regex -- vitest's messages carry colour codes
  const lines = message.replace(/\u001b\[[0-9;]*m/g, '').split('\n');
  // vitest's timeout errors keep the stack of an error made when the test was declared
  if (lines[0] === 'Error: STACK_TRACE_ERROR') lines[0] = 'timed out (vitest: STACK_TRACE_ERROR)';
  const head = lines.slice(0, 6).filter((line) => !/^\s+at /.test(line));
  return head.map((line) => line.slice(0, 300)).join('\n    ');
}

async function consoleBuild(): Promise<Step> {
  const started = performance.now();
  try {
    await ensureConsoleBuild();
    return { name: 'console build (api, e2e)', ok: true, seconds: (performance.now() - started) / 1000 };
  } catch (error) {
    console.error(error);
    return { name: 'console build (api, e2e)', ok: false, seconds: (performance.now() - started) / 1000 };
  }
}

function summary(steps: Step[], started: number): void {
  console.log(`\n== ${system ? 'npm run test:system' : 'npm test'}`);
  for (const step of steps) {
    const tests = step.tests ? `  ${step.tests.passed} passed, ${step.tests.failed} failed, ${step.tests.skipped} skipped` : '';
    console.log(`${step.ok ? 'ok    ' : 'FAILED'}  ${step.name.padEnd(26)} ${step.seconds.toFixed(1).padStart(6)} s${tests}`);
  }
  console.log(`total ${((performance.now() - started) / 1000).toFixed(1)} s (rounds run side by side: the total is less than the sum)`);
  const counted = steps.flatMap((step) => (step.tests ? [step.tests] : []));
  const passed = counted.reduce((sum, t) => sum + t.passed, 0);
  const failed = counted.reduce((sum, t) => sum + t.failed, 0) + steps.filter((step) => !step.ok && !step.tests?.failed).length;
  console.log(`${passed} passed, ${failed} failed`);
  // Last, so that a log cut to its end still names them.
  const named = (title: string, tests: string[]) => tests.length > 0 && console.log(`\n${title}:\n${tests.map((test) => `  ${test}`).join('\n')}`);
  named('passed only on a retry (flaky: see decision 197)', steps.flatMap((step) => step.retried ?? []));
  named('failed', steps.flatMap((step) => step.failures ?? []));
}

async function main(): Promise<number> {
  const started = performance.now();
  const steps: Step[] = [];
  const rounds: (() => Promise<Step>)[][] = system
    ? [[consoleBuild], SYSTEM_PROJECTS.map((name) => () => project(name))]
    : [
        [() => command('typecheck', bin('tsc'), ['--noEmit']), () => command('lint', bin('eslint'), ['.']), () => project('unit'), consoleBuild],
        INNER_PROJECTS.map((name) => () => project(name)),
      ];
  for (const round of rounds) {
    steps.push(...(await Promise.all(round.map((run) => run()))));
    if (steps.some((step) => !step.ok)) break;
  }
  summary(steps, started);
  rmSync(reports, { recursive: true, force: true });
  return steps.every((step) => step.ok) && steps.length === rounds.flat().length ? 0 : 1;
}

main().then(
  (code) => process.exit(code),
  (error) => {
    console.error(error);
    process.exit(1);
  },
);
