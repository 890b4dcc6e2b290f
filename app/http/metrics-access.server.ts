import { timingSafeEqual } from 'node:crypto';

const LOOPBACK = new Set(['127.0.0.1', '::1', '::ffff:127.0.0.1']);

/**
 * Who may read /metrics: with a token configured, a request bearing it; without, a request from
 * this host that no proxy forwarded (a reverse proxy on the same host would otherwise make every
 * visitor look local).
 */
export function metricsAllowed(request: Request, clientAddress: string | undefined, token: string | undefined): boolean {
  if (token) {
    const given = Buffer.from(request.headers.get('Authorization')?.replace(/^Bearer /, '') ?? '');
    const wanted = Buffer.from(token);
    return given.length === wanted.length && timingSafeEqual(given, wanted);
  }
  const forwarded = request.headers.has('X-Forwarded-For') || request.headers.has('Forwarded') || request.headers.has('X-Real-IP');
  return !forwarded && clientAddress !== undefined && LOOPBACK.has(clientAddress);
}
