import path from 'node:path';
import { defineConfig } from 'vitest/config';

const alias = { '~': path.resolve(__dirname, 'app') };

// The browser and process tests run as three projects side by side (npm test), each with its own
// database and console server: the console's screens in one; in another the tests that start
// processes of their own (npm start, the worker, the gateway, the CLI, mail) and the
// accessibility audit that walks every page; in the third the crash, multi-process and scale runs.
// A new file joins the screens unless it is named here.
const E2E_SYSTEM = [
  'accessibility', 'alert-mail', 'api-docs', 'cli', 'cli-import', 'foundation', 'gateway-console', 'gateway-health-mail', 'live-outage',
  'live-updates', 'npm-start', 'report-worker',
].map((name) => `tests/e2e/${name}.test.ts`);
// The long runs of whole processes under load (crashes, several processes, the chain rig): a
// third project beside the other two, so that their waits overlap the screens' work.
const E2E_SCALE = ['chain-rig', 'ingest-crash', 'ingest-kills', 'multi-process'].map((name) => `tests/e2e/${name}.test.ts`);

function e2eProject(name: string, files: { include: string[]; exclude?: string[] }) {
  return {
    resolve: { alias },
    test: {
      name,
      ...files,
      globalSetup: ['tests/support/global-db.ts', 'tests/support/global-server.ts'],
      setupFiles: ['tests/support/setup-env.ts'],
      // One database and one console per project: its files run one after another in one fork.
      pool: 'forks' as const,
      poolOptions: { forks: { singleFork: true } },
      testTimeout: 60_000,
      hookTimeout: 180_000,
      // A browser or process test that fails is run once more: on 2 cores beside two other
      // projects a wait can run out by chance. npm test names every test that passed only on its
      // retry, so a flaky test is seen and mended, not hidden (decision 197).
      retry: 1,
    },
  };
}

export default defineConfig({
  resolve: { alias },
  test: {
    projects: [
      // Generous: the unit project runs beside the type-check and the lint on 2 cores (npm test).
      { resolve: { alias }, test: { name: 'unit', include: ['tests/unit/**/*.test.ts'], testTimeout: 20_000 } },
      {
        resolve: { alias },
        test: {
          name: 'api',
          include: ['tests/api/**/*.test.ts'],
          globalSetup: ['tests/support/global-db.ts'],
          setupFiles: ['tests/support/setup-env.ts'],
          // One database for the suite: files run one after another in one fork, and each test empties the tables.
          pool: 'forks',
          poolOptions: { forks: { singleFork: true } },
          testTimeout: 30_000,
          hookTimeout: 120_000,
        },
      },
      e2eProject('e2e-console', { include: ['tests/e2e/**/*.test.ts'], exclude: [...E2E_SYSTEM, ...E2E_SCALE] }),
      e2eProject('e2e-system', { include: E2E_SYSTEM }),
      e2eProject('e2e-scale', { include: E2E_SCALE }),
    ],
  },
});
