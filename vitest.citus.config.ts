import path from 'node:path';
import { defineConfig } from 'vitest/config';

const alias = { '~': path.resolve(__dirname, 'app') };

// `npm run test:citus`: the API suite and the cluster's own tests on a real Citus cluster
// (CITUS_NODES, scripts/test-citus.ts). The files that hold plain PostgreSQL's catalog or its
// absence of Citus are left out: they say what the cluster changes.
export default defineConfig({
  resolve: { alias },
  test: {
    name: 'citus',
    include: ['tests/api/**/*.test.ts', 'tests/citus/**/*.test.ts'],
    exclude: ['tests/api/distribution.test.ts'],
    globalSetup: ['tests/support/global-citus.ts'],
    setupFiles: ['tests/support/setup-env.ts'],
    pool: 'forks',
    poolOptions: { forks: { singleFork: true } },
    testTimeout: 60_000,
    hookTimeout: 180_000,
  },
});
