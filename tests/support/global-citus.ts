import type { TestProject } from 'vitest/node';
import { citusNodes, prepareCitusDatabase } from './citus-cluster';

declare module 'vitest' {
  export interface ProvidedContext {
    /** Set by the citus project only: the tests' database is a Citus coordinator. */
    onCitus: boolean;
  }
}

// The citus project's database: migrated and distributed on the cluster CITUS_NODES names
// (scripts/test-citus.ts refuses to start without one).
export default async function setup(project: TestProject) {
  const url = await prepareCitusDatabase(citusNodes(), 'onreco_citus');
  project.provide('databaseUrl', url);
  project.provide('onCitus', true);
}
