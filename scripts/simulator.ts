// The living demo's simulated gateways (started by scripts/start.ts with the seed's time as its
// argument): app/services/demo-simulator.server.ts.
import { z } from 'zod';
import { DEMO_DEFAULT_PASSWORD } from '../app/domain/demo';
import { getEnv } from '../app/env.server';
import { DemoSimulator } from '../app/demo/simulator.server';
import { logger } from '../app/services/logger.server';

const env = getEnv();
const stop = new AbortController();
const simulator = new DemoSimulator({
  server: `http://localhost:${env.PORT}`,
  password: env.ONRECO_DEMO_PASSWORD ?? DEMO_DEFAULT_PASSWORD,
  seededAt: z.coerce.date().parse(process.argv[2]),
  log: logger.child({ module: 'simulator' }),
  signal: stop.signal,
});
process.on('SIGINT', () => stop.abort());
process.on('SIGTERM', () => stop.abort());
void simulator.run().then(() => process.exit(0));
