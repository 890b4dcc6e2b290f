// `npm run test:citus`: the suite on a Citus cluster it is given,
//   CITUS_NODES=host:port,host:port,host:port npm run test:citus   (the coordinator first;
//   user postgres with trust auth on every node, the citus extension installed).
// Without CITUS_NODES it says so and passes: plain PostgreSQL is what `npm test` covers.
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { citusNodes } from '../tests/support/citus-cluster';

const nodes = citusNodes();
if (nodes.length === 0) {
  console.log('test:citus: skipped, CITUS_NODES is not set (CITUS_NODES=host:port,host:port,… with the coordinator first)');
  process.exit(0);
}
console.log(`test:citus: on ${nodes.map((node) => `${node.host}:${node.port}`).join(', ')} (coordinator first)`);
const vitest = path.resolve('node_modules/.bin/vitest');
const run = spawnSync(vitest, ['run', '--config', 'vitest.citus.config.ts', ...process.argv.slice(2)], { stdio: 'inherit', env: { ...process.env, DATABASE_URL: '' } });
process.exit(run.status ?? 1);
