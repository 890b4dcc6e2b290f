// The web server process: the console and the /on-reco API from a production build (the
// argument, else build/index.js), on PORT. `npm start` and the tests run it; it replaces
// remix-serve (docs/decisions/080-web-server.md). With WEB_CONCURRENCY above 1 this process
// supervises that many web servers on the one port (docs/decisions/184-several-processes.md).
import cluster from 'node:cluster';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { installGlobals, type ServerBuild } from '@remix-run/node';
import { getEnv } from '../app/env.server';
import { superviseWebProcesses } from '../app/http/server/web-cluster.server';
import { createWebServer } from '../app/http/server/web-server.server';
import { logger } from '../app/services/logger.server';

const env = getEnv();
const log = logger.child({ module: 'web' });

async function serve() {
  installGlobals({ nativeFetch: true });
  const build = (await import(pathToFileURL(path.resolve(process.argv[2] ?? 'build/index.js')).href)) as ServerBuild;
  const app = createWebServer({ build, mode: env.NODE_ENV, publicUrl: env.ONRECO_PUBLIC_URL, log });
  const server = app.listen(env.PORT, () => log.info({ url: `http://localhost:${env.PORT}`, pid: process.pid }, 'console ready'));
  // On a stop signal the server takes no new connection and ends when its requests are done; the
  // live-update streams end themselves on the same signal (app/services/live-updates.server.ts).
  // Once only: under WEB_CONCURRENCY a Ctrl-C may be followed by the supervisor's SIGTERM.
  let closing = false;
  const close = () => {
    if (closing) return;
    closing = true;
    server.close((error) => {
      if (error) log.error({ err: error }, 'closing the web server failed');
      // A web process of the supervisor: its channel to it would keep the process alive.
      if (cluster.isWorker) process.disconnect();
    });
  };
  process.on('SIGTERM', close);
  process.on('SIGINT', close);
}

if (cluster.isPrimary && env.WEB_CONCURRENCY > 1) superviseWebProcesses(env.WEB_CONCURRENCY, log);
else await serve();
