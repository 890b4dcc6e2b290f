// The web server process: the console and the /on-reco API from a production build (the
// argument, else build/index.js), on PORT. `npm start` and the tests run it; it replaces
// remix-serve (docs/decisions/080-web-server.md). With WEB_CONCURRENCY above 1 this process
// supervises that many web servers on the one port (docs/decisions/184-several-processes.md).
import cluster from 'node:cluster';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { installGlobals, type ServerBuild } from '@remix-run/node';
import { getEnv } from '../app/env.server';
import { ROLLING_RESTART_SIGNAL, superviseWebProcesses } from '../app/http/server/web-cluster.server';
import { createHttpServer } from '../app/http/server/request-limits.server';
import { createWebServer } from '../app/http/server/web-server.server';
import { logger } from '../app/services/logger.server';

const env = getEnv();
const log = logger.child({ module: 'web' });

async function serve() {
  installGlobals({ nativeFetch: true });
  const build = (await import(pathToFileURL(path.resolve(process.argv[2] ?? 'build/index.js')).href)) as ServerBuild;
  const app = createWebServer({ build, mode: env.NODE_ENV, publicUrl: env.ONRECO_PUBLIC_URL, log, trustProxy: env.TRUST_PROXY });
  const server = createHttpServer(app).listen(env.PORT, () => log.info({ url: `http://localhost:${env.PORT}`, pid: process.pid }, 'console ready'));
  // Gateways post once a minute: their connection stays open between posts (SERVER_TIMEOUTS, decision 221).
  // On a stop signal the server takes no new connection and ends when its requests are done; the
  // live-update streams end themselves on the same signal (app/services/live-updates.server.ts).
  // Once only: under WEB_CONCURRENCY a Ctrl-C may be followed by the supervisor's SIGTERM.
  let closing = false;
  // A gateway's kept-alive connection is busy again each minute (or back to back while it catches
  // up): closing only idle connections would never end it. Each answer after the signal ends its
  // connection, and the client's next request opens one to a process that is staying.
  server.prependListener('request', (_request, response) => {
    if (closing) response.setHeader('Connection', 'close');
  });
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
  // Unhandled, the signal would end the process: one process has no other to serve meanwhile.
  if (cluster.isPrimary) process.on(ROLLING_RESTART_SIGNAL, () => log.warn('a rolling restart needs WEB_CONCURRENCY of 2 or more; restart the service instead'));
}

if (cluster.isPrimary && env.WEB_CONCURRENCY > 1) superviseWebProcesses(env.WEB_CONCURRENCY, log);
else await serve();
