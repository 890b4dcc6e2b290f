import path from 'node:path';
import { configDefaults, defineConfig } from 'vitest/config';
import { E2E_SCALE, E2E_SYSTEM, UNIT_CRASH } from './tests/support/projects';

const alias = { '~': path.resolve(__dirname, 'app') };

// The browser and process tests run as three projects, each with its own database and console
// server: the console's screens (e2e-console); the tests that start processes of their own or walk
// every page (e2e-system); the crash, multi-process and scale runs (e2e-scale, in
// `npm run test:system` only). tests/support/projects.ts names the files of each.
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
    // npm run test:watch (scripts/test-watch.ts): the browser tests import little of app/, so a
    // change there reruns the watched file, against a console rebuilt when its sources changed.
    forceRerunTriggers: process.env.ONRECO_TEST_WATCH ? [...configDefaults.forceRerunTriggers, `${alias['~']}/**`] : configDefaults.forceRerunTriggers,
    projects: [
      // Generous: the unit project runs beside the type-check and the lint on 2 cores (npm test).
      { resolve: { alias }, test: { name: 'unit', include: ['tests/unit/**/*.test.ts'], exclude: UNIT_CRASH, testTimeout: 20_000 } },
      { resolve: { alias }, test: { name: 'unit-crash', include: UNIT_CRASH, testTimeout: 60_000 } },
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
