import { createRequestHandler } from '@remix-run/express';
import type { ServerBuild } from '@remix-run/node';
import compression from 'compression';
import express from 'express';
import type { Logger } from 'pino';
import { refuseCrossSite } from './cross-site.server';
import { type LoadLimits, limitBodies, shedLoad } from './request-limits.server';
import { requestLog } from './request-log.server';
import { securityHeaders } from './security-headers.server';
import '../load-context.server';

// The console's web server: what remix-serve did (static files, compression, the Remix handler)
// plus what it cannot do (docs/decisions/080-web-server.md): a CSP nonce per request, security
// headers, a cross-site check, body and load limits before authentication, one log line per
// request.

export interface WebServerOptions {
  build: ServerBuild;
  mode: string;
  publicUrl: string;
  log: Logger;
  load?: Partial<LoadLimits>;
}

export const DEFAULT_LOAD_LIMITS: LoadLimits = { maxInFlight: 64, perClientPerSecond: 50, perClientBurstPerMinute: 300 };

/** Server-sent events are not compressed: a compressed stream holds events back until a block fills. */
const compressible = (req: express.Request, res: express.Response) =>
  !String(res.getHeader('Content-Type') ?? '').startsWith('text/event-stream') && compression.filter(req, res);

export function createWebServer({ build, mode, publicUrl, log, load }: WebServerOptions): express.Express {
  const app = express();
  app.disable('x-powered-by');
  app.use(requestLog(build, log));
  app.use(securityHeaders({ https: publicUrl.startsWith('https:') }));
  app.use(compression({ filter: compressible }));
  app.use(build.publicPath, express.static(build.assetsBuildDirectory, { immutable: true, maxAge: '1y' }));
  app.use(express.static('public', { maxAge: '1h' }));
  app.use(refuseCrossSite(publicUrl));
  app.use(limitBodies());
  app.use(shedLoad({ ...DEFAULT_LOAD_LIMITS, ...load }));
  app.all('*', createRequestHandler({ build, mode, getLoadContext: (req, res) => ({ cspNonce: res.locals.cspNonce as string, clientAddress: req.ip ?? req.socket.remoteAddress }) }));
  return app;
}
