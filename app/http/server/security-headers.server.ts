import { randomBytes } from 'node:crypto';
import type { RequestHandler } from 'express';
import onHeaders from 'on-headers';

// Headers of every answer (docs/decisions/080-web-server.md). Scripts run only from our origin or
// with this request's nonce (Remix's inline scripts carry it), so an injected <script> does not
// run; styles allow inline attributes, which React renders for positions and colours.

function contentSecurityPolicy(nonce: string): string {
  return [
    "default-src 'self'",
    `script-src 'self' 'nonce-${nonce}'`,
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "font-src 'self' data:",
    "connect-src 'self'",
    "worker-src 'self' blob:",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ');
}

export function securityHeaders(options: { https: boolean }): RequestHandler {
  return (req, res, next) => {
    const nonce = randomBytes(16).toString('base64');
    res.locals.cspNonce = nonce;
    res.setHeader('Content-Security-Policy', contentSecurityPolicy(nonce));
    res.setHeader('X-Content-Type-Options', 'nosniff');
    res.setHeader('X-Frame-Options', 'DENY');
    res.setHeader('Referrer-Policy', 'strict-origin-when-cross-origin');
    res.setHeader('Cross-Origin-Opener-Policy', 'same-origin');
    res.setHeader('Permissions-Policy', 'camera=(), microphone=(), geolocation=()');
    if (options.https || req.secure) res.setHeader('Strict-Transport-Security', 'max-age=31536000; includeSubDomains');
    // API answers are per user and per moment: never kept by a browser or a proxy, unless the
    // route itself said otherwise (the OpenAPI description).
    if (req.path.startsWith('/on-reco/')) {
      onHeaders(res, () => {
        if (!res.getHeader('Cache-Control')) res.setHeader('Cache-Control', 'no-store');
      });
    }
    next();
  };
}
