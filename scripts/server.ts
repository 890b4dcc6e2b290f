// The web server process: the console and the /on-reco API from a production build (the
// argument, else build/index.js), on PORT. `npm start` and the tests run it; it replaces
// remix-serve (docs/decisions/080-web-server.md).
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { installGlobals, type ServerBuild } from '@remix-run/node';
import { getEnv } from '../app/env.server';
import { createWebServer } from '../app/http/server/web-server.server';
import { logger } from '../app/services/logger.server';

installGlobals({ nativeFetch: true });

const env = getEnv();
const log = logger.child({ module: 'web' });
const build = (await import(pathToFileURL(path.resolve(process.argv[2] ?? 'build/index.js')).href)) as ServerBuild;
const app = createWebServer({ build, mode: env.NODE_ENV, publicUrl: env.ONRECO_PUBLIC_URL, log });

const server = app.listen(env.PORT, () => log.info({ url: `http://localhost:${env.PORT}` }, 'console ready'));
// On a stop signal the server takes no new connection and ends when its requests are done; the
// live-update streams end themselves on the same signal (app/services/live-updates.server.ts).
for (const signal of ['SIGTERM', 'SIGINT'] as const) {
  process.once(signal, () => server.close((error) => error && log.error({ err: error }, 'closing the web server failed')));
}
