import { createRequestHandler } from '@remix-run/express';
import type { ServerBuild } from '@remix-run/node';
import compression from 'compression';
import express from 'express';
import type { Logger } from 'pino';
import type { TrustProxy } from '~/env.server';
import { refuseCrossSite } from './cross-site.server';
import { capUnfinishedBodies, type LoadLimits, limitBodies, shedLoad } from './request-limits.server';
import { requestLog } from './request-log.server';
import { leanAction } from './lean-route.server';
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
  /** Express's `trust proxy` (TRUST_PROXY): which forwarded address is the client's, for every limit and the log. */
  trustProxy?: TrustProxy;
}

export const DEFAULT_LOAD_LIMITS: LoadLimits = { maxInFlight: 64, perClientPerSecond: 50, perClientBurstPerMinute: 300, maxUnfinishedBodiesPerAddress: 16 };

/** Server-sent events are not compressed: a compressed stream holds events back until a block fills. */
const compressible = (req: express.Request, res: express.Response) =>
  !String(res.getHeader('Content-Type') ?? '').startsWith('text/event-stream') && compression.filter(req, res);

export function createWebServer({ build, mode, publicUrl, log, load, trustProxy = false }: WebServerOptions): express.Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('trust proxy', trustProxy);
  const limits = { ...DEFAULT_LOAD_LIMITS, ...load };
  app.use(capUnfinishedBodies(limits.maxUnfinishedBodiesPerAddress, log));
  app.use(requestLog(build, log));
  // Gateways' readings skip Remix's router and the browser's headers (lean-route.server.ts).
  app.post('/on-reco/v1/gateway/readings', leanAction(build, 'routes/on-reco+/v1.gateway.readings', (req) => ({ clientAddress: req.ip ?? req.socket.remoteAddress })));
  app.use(securityHeaders({ https: publicUrl.startsWith('https:') }));
  app.use(compression({ filter: compressible }));
  app.use(build.publicPath, express.static(build.assetsBuildDirectory, { immutable: true, maxAge: '1y' }));
  app.use(express.static('public', { maxAge: '1h' }));
  app.use(refuseCrossSite(publicUrl));
  app.use(limitBodies());
  app.use(shedLoad(limits));
  app.all('*', createRequestHandler({ build, mode, getLoadContext: (req, res) => ({ cspNonce: res.locals.cspNonce as string, clientAddress: req.ip ?? req.socket.remoteAddress }) }));
  return app;
}
