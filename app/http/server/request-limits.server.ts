import { createServer, type RequestListener, type Server } from 'node:http';
import type { RequestHandler } from 'express';
import type { Logger } from 'pino';
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
  /** Requests one process works on at once, counted from the end of their body; past it, 429. */
  maxInFlight: number;
  /** Requests per second per client (bearer token, session cookie, or else address)… */
  perClientPerSecond: number;
  /** …plus this many more a minute in bursts (a script's or the demo's run through the stores). */
  perClientBurstPerMinute: number;
  /** Bodies one address may be sending at once; past it, 429 and the connection closes. */
  maxUnfinishedBodiesPerAddress: number;
}

/** A request whose body has yet to arrive (a GET's, or a POST's already read, has none to wait for). */
const awaitsBody = (req: Req) => !req.readableEnded && !SAFE_METHODS.has(req.method) && Number(req.get('Content-Length') ?? 0) > 0;

const FLOOD_REFUSAL_BODY = Buffer.from(JSON.stringify({ error: 'too_many_requests', error_description: 'Too many unfinished requests from this address; retry later.' }));
/** A refusal for too many unfinished bodies waits this long, up to twice as long (jitter). */
const FLOOD_REFUSAL_DELAY_MS = 5000;
const FLOOD_REFUSAL_HEADERS = { 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': String(FLOOD_REFUSAL_BODY.length), 'Retry-After': '5', Connection: 'close' };

/** Refusals of one address are logged at most this often, as a count: a flood would flood the log. */
const REFUSALS_LOGGED_EVERY_MS = 10_000;

/**
 * A cap per address on request bodies still arriving. A client that starts a body and never ends
 * it holds a socket of its own (bounded by SERVER_TIMEOUTS) but none of the work others need
 * (shedLoad counts a request in flight only once its body has arrived); its address may hold only
 * `max` such bodies. First of the middleware: a refusal costs no log line, security header or
 * compression, so that an address reconnecting hundreds of times a second slows no one else.
 */
export function capUnfinishedBodies(max: number, log: Pick<Logger, 'warn'>): RequestHandler {
  const unfinished = new Map<string, number>();
  const refusals = new Map<string, { count: number; since: number }>();
  /** Counts the body against its address until it has arrived or the request is gone. */
  const count = (req: Req, res: Res, address: string) => {
    unfinished.set(address, (unfinished.get(address) ?? 0) + 1);
    let counted = true;
    const done = () => {
      if (!counted) return;
      counted = false;
      const left = (unfinished.get(address) ?? 1) - 1;
      if (left === 0) unfinished.delete(address);
      else unfinished.set(address, left);
    };
    req.once('end', done);
    res.once('close', done);
  };
  const noteRefusal = (address: string) => {
    const now = Date.now();
    const seen = refusals.get(address) ?? { count: 0, since: now };
    seen.count += 1;
    refusals.set(address, seen);
    if (seen.count === 1 || now - seen.since >= REFUSALS_LOGGED_EVERY_MS) {
      log.warn({ address, refused: seen.count, seconds: Math.round((now - seen.since) / 1000), max }, 'request bodies refused: too many unfinished from this address');
      refusals.set(address, { count: 0, since: now });
    }
  };
  return (req, res, next) => {
    if (!awaitsBody(req) || isStream(req.path)) return next();
    const address = req.ip ?? 'unknown';
    if ((unfinished.get(address) ?? 0) >= max) {
      noteRefusal(address);
      // Answered after a few seconds, at a moment of its own: an address that reconnects at once
      // would otherwise arrive in bursts of hundreds a second that hold up everyone's requests.
      // Written as it is: Express's json() would hash the body for an ETag on every refusal.
      req.socket.pause();
      const answer = setTimeout(() => res.writeHead(429, FLOOD_REFUSAL_HEADERS).end(FLOOD_REFUSAL_BODY), FLOOD_REFUSAL_DELAY_MS * (1 + Math.random()));
      res.once('close', () => clearTimeout(answer));
      return;
    }
    // Also while a body shedLoad refused is read to its end (comeBackLater).
    count(req, res, address);
    next();
  };
}

/**
 * Per-client rates and a cap on work in flight. A request is counted in flight only once its body
 * has arrived (capUnfinishedBodies bounds the bodies still arriving).
 */
export function shedLoad(limits: LoadLimits): RequestHandler {
  const perClient = new BurstyRateLimiter(
    new RateLimiterMemory({ points: limits.perClientPerSecond, duration: 1 }),
    new RateLimiterMemory({ keyPrefix: 'burst', points: limits.perClientBurstPerMinute, duration: 60 }),
  );
  let inFlight = 0;
  const countInFlight = (res: Res) => {
    inFlight += 1;
    res.once('close', () => (inFlight -= 1));
  };
  return (req, res, next) => {
    if (isStream(req.path)) return next();
    const address = req.ip ?? 'unknown';
    const withBody = awaitsBody(req);
    if (inFlight >= limits.maxInFlight) return comeBackLater(req, res, 'busy', 'The server is busy; retry later.', 2);
    const client = req.get('Authorization') ?? sessionCookieOf(req.get('Cookie')) ?? `address:${address}`;
    perClient
      .consume(client)
      .then(() => {
        if (req.readableEnded || !withBody) countInFlight(res);
        else req.once('end', () => countInFlight(res));
        next();
      })
      .catch((limited: unknown) => {
        const wait = limited instanceof RateLimiterRes ? Math.max(1, Math.ceil(limited.msBeforeNext / 1000)) : 1;
        comeBackLater(req, res, 'too_many_requests', 'Too many requests; retry later.', wait);
      });
  };
}

/**
 * Node's limits on a connection's request, sized from the slowest real client: a gateway on LTE
 * (docs/decisions/213-slow-clients-and-proxies.md). Headers come in one packet; a body is at most
 * a catch-up batch of 5,000 readings (about 45 KB gzip), 9 s at 40 kbit/s; the rest is room for
 * a radio that stalls.
 */
export const SERVER_TIMEOUTS = {
  /** Until the whole request head has arrived. */
  headersTimeoutMs: 15_000,
  /** Until the whole request, body included, has arrived. */
  requestTimeoutMs: 60_000,
  /**
   * An idle kept-alive connection: longer than a proxy's idle timeout (so the proxy closes first)
   * and than a gateway's 60 s between uploads plus its 70 s idle hold (gateway/api-client.ts), so
   * that a gateway keeps one connection (one TLS handshake) instead of one a minute
   * (docs/decisions/266).
   */
  keepAliveTimeoutMs: 75_000,
} as const;

/** The HTTP server for the console's handler, with SERVER_TIMEOUTS checked every 5 s (Node's default is 30 s). */
export function createHttpServer(handler: RequestListener): Server {
  return createServer(
    {
      headersTimeout: SERVER_TIMEOUTS.headersTimeoutMs,
      requestTimeout: SERVER_TIMEOUTS.requestTimeoutMs,
      keepAliveTimeout: SERVER_TIMEOUTS.keepAliveTimeoutMs,
      connectionsCheckingInterval: 5000,
    },
    handler,
  );
}

function sessionCookieOf(cookie: string | undefined): string | undefined {
  return cookie?.match(/__onreco_session=([^;]+)/)?.[1];
}
