import path from 'node:path';
import { defineConfig } from 'vitest/config';

const alias = { '~': path.resolve(__dirname, 'app') };

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
      {
        resolve: { alias },
        test: {
          name: 'e2e',
          include: ['tests/e2e/**/*.test.ts'],
          globalSetup: ['tests/support/global-db.ts', 'tests/support/global-server.ts'],
          setupFiles: ['tests/support/setup-env.ts'],
          pool: 'forks',
          poolOptions: { forks: { singleFork: true } },
          testTimeout: 60_000,
          hookTimeout: 180_000,
        },
      },
    ],
  },
});
