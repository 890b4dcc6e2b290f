// The living demo's simulated gateways (started by scripts/start.ts with the seed's time as its
// argument): app/services/demo-simulator.server.ts.
import { z } from 'zod';
import { DEMO_DEFAULT_PASSWORD } from '../app/domain/demo';
import { getEnv } from '../app/env.server';
import { DemoSimulator } from '../app/demo/simulator.server';
import { logger } from '../app/services/logger.server';

const env = getEnv();
const stop = new AbortController();
const log = logger.child({ module: 'simulator' });
const simulator = new DemoSimulator({
  server: `http://localhost:${env.PORT}`,
  password: env.ONRECO_DEMO_PASSWORD ?? DEMO_DEFAULT_PASSWORD,
  seededAt: z.coerce.date().parse(process.argv[2]),
  log,
  signal: stop.signal,
});
process.on('SIGINT', () => stop.abort());
process.on('SIGTERM', () => stop.abort());
// A request cut by the console's own stop (Ctrl-C reaches the web server first) is the stop, not
// a failure; any other error is logged and ends the simulator (npm start runs on without it).
void simulator.run().then(
  () => process.exit(0),
  (error: unknown) => {
    if (!stop.signal.aborted) log.error({ err: error }, 'the demo simulator failed');
    process.exit(stop.signal.aborted ? 0 : 1);
  },
);
