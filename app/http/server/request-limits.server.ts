import type { RequestHandler } from 'express';
import { BurstyRateLimiter, RateLimiterMemory, RateLimiterRes } from 'rate-limiter-flexible';
import { postReadings } from '~/domain/api/gateway';
import { importEquipments } from '~/domain/api/sensor-settings';
import { importStores } from '~/domain/api/stores';
import { MAX_DIAGRAM_UPLOAD_BYTES } from '~/domain/diagram';

// Limits that hold before a request reaches Remix, its authentication or its parsing: a body
// larger than any call takes is refused from its Content-Length, and a burst larger than the
// process can serve is told to come back (429 with Retry-After) instead of queueing into
// timeouts. docs/decisions/080-web-server.md has the figures.

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);
const MiB = 1024 * 1024;
/** Diagram uploads (the only multipart bodies), gateway batches and imports (as the calls declare), and everything else. */
export const BODY_LIMITS = {
  upload: MAX_DIAGRAM_UPLOAD_BYTES,
  readings: postReadings.input.maxBytes ?? MiB,
  import: importStores.input.maxBytes ?? MiB,
  other: MiB,
} as const;

const IMPORT_PATHS = new Set([importStores.path, importEquipments.path]);

function bodyLimitOf(path: string, contentType: string): number {
  if (path === postReadings.path) return BODY_LIMITS.readings;
  if (IMPORT_PATHS.has(path)) return BODY_LIMITS.import;
  if (contentType.startsWith('multipart/form-data')) return BODY_LIMITS.upload;
  return BODY_LIMITS.other;
}

type Req = Parameters<RequestHandler>[0];
type Res = Parameters<RequestHandler>[1];

/** 411 or 413: the body is not read; the connection closes after the answer. */
function refuse(res: Res, status: number, error: string, description: string) {
  res.setHeader('Connection', 'close');
  res.status(status).json({ error, error_description: description });
}

/**
 * 429 with Retry-After, after reading the body to its end (limitBodies has bounded it): a client
 * still sending would otherwise meet a reset instead of the status, or a stuck kept-alive
 * connection (the gateway's uploader backs off on the status).
 */
function comeBackLater(req: Req, res: Res, error: string, description: string, retryAfterSeconds: number) {
  res.setHeader('Retry-After', String(retryAfterSeconds));
  const answer = () => res.status(429).json({ error, error_description: description });
  if (req.readableEnded) return answer();
  req.once('end', answer);
  req.once('error', () => res.destroy());
  req.resume();
}

export function limitBodies(): RequestHandler {
  return (req, res, next) => {
    if (SAFE_METHODS.has(req.method)) return next();
    const length = req.get('Content-Length');
    if (length === undefined) {
      if (req.get('Transfer-Encoding')) return refuse(res, 411, 'length_required', 'Send the body with a Content-Length.');
      return next();
    }
    const limit = bodyLimitOf(req.path, req.get('Content-Type') ?? '');
    if (!/^\d+$/.test(length) || Number(length) > limit) return refuse(res, 413, 'payload_too_large', `The body is larger than ${limit} bytes.`);
    next();
  };
}

/** Long-lived event streams and static files do not count as work in flight. */
const isStream = (path: string) => path === '/resources/events';

export interface LoadLimits {
  /** Requests one process works on at once; past it, 429. */
  maxInFlight: number;
  /** Requests per second per client (bearer token, session cookie, or else address)… */
  perClientPerSecond: number;
  /** …plus this many more a minute in bursts (a script's or the demo's run through the stores). */
  perClientBurstPerMinute: number;
}

export function shedLoad(limits: LoadLimits): RequestHandler {
  const perClient = new BurstyRateLimiter(
    new RateLimiterMemory({ points: limits.perClientPerSecond, duration: 1 }),
    new RateLimiterMemory({ keyPrefix: 'burst', points: limits.perClientBurstPerMinute, duration: 60 }),
  );
  let inFlight = 0;
  return (req, res, next) => {
    if (isStream(req.path)) return next();
    if (inFlight >= limits.maxInFlight) return comeBackLater(req, res, 'busy', 'The server is busy; retry later.', 2);
    const client = req.get('Authorization') ?? sessionCookieOf(req.get('Cookie')) ?? `address:${req.ip}`;
    perClient
      .consume(client)
      .then(() => {
        inFlight += 1;
        res.once('close', () => {
          inFlight -= 1;
        });
        next();
      })
      .catch((limited: unknown) => {
        const wait = limited instanceof RateLimiterRes ? Math.max(1, Math.ceil(limited.msBeforeNext / 1000)) : 1;
        comeBackLater(req, res, 'too_many_requests', 'Too many requests; retry later.', wait);
      });
  };
}

function sessionCookieOf(cookie: string | undefined): string | undefined {
  return cookie?.match(/__onreco_session=([^;]+)/)?.[1];
}
