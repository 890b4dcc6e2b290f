// Which test file runs in which vitest project (vitest.config.ts), and which projects run in
// `npm test` (the inner loop) and which in `npm run test:system` (scripts/test.ts, .ci/run).
// The watch mode (scripts/test-watch.ts) reads the same lists to pick a file's project.

const e2e = (names: string[]) => names.map((name) => `tests/e2e/${name}.test.ts`);

/**
 * Browser and process tests that start processes of their own (the worker, the gateway, the CLI,
 * mail) or walk every page: one project beside the screens, with its own database and console.
 * A new file under tests/e2e joins the screens (e2e-console) unless it is named here.
 */
export const E2E_SYSTEM = e2e([
  'accessibility', 'alert-mail', 'api-docs', 'cli', 'cli-import', 'foundation', 'gateway-console', 'gateway-health-mail', 'gateway-releases', 'live-outage',
  'live-updates', 'nginx', 'escalation-done',
]);

/**
 * The long runs of whole processes: kills at random moments, several web processes, the chain rig,
 * `npm start` stopped four ways, a report worker killed mid-report. They prove what a change
 * rarely breaks and take minutes of both cores, so they run in `npm run test:system` (and in
 * .ci/run after `npm test`), not in the inner loop.
 */
export const E2E_SCALE = e2e(['chain-rig', 'ingest-crash', 'ingest-kills', 'multi-process', 'npm-start', 'report-worker', 'backup-restore', 'rolling-restart']);

/** The gateway's kill -9 test (no database, no console): in test:system beside e2e-scale. */
export const UNIT_CRASH = ['tests/unit/gateway/crash.test.ts'];

/** The projects of `npm test`'s second round (after the type-check, the lint and unit). */
export const INNER_PROJECTS = ['api', 'e2e-console', 'e2e-system'] as const;
/** The projects of `npm run test:system`. */
export const SYSTEM_PROJECTS = ['e2e-scale', 'unit-crash'] as const;
