import type { RequestHandler } from 'express';

// The console's session cookie is SameSite=Lax; this is the second barrier against cross-site
// request forgery (OWASP: Fetch Metadata, then Origin). Remix's `?_data=` requests and resource
// routes go through it too. /on-reco calls carry a bearer token, which a cross-site page cannot
// set, so they are not checked here.

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

export function isCrossSite(headers: { secFetchSite?: string; origin?: string }, ownOrigins: Set<string>): boolean {
  if (headers.secFetchSite) return headers.secFetchSite !== 'same-origin' && headers.secFetchSite !== 'none';
  // No Fetch Metadata: an older browser (it sends Origin on a cross-origin POST) or no browser
  // at all (scripts, which hold no cookie of a signed-in user).
  if (!headers.origin) return false;
  return !ownOrigins.has(headers.origin);
}

export function refuseCrossSite(publicUrl: string): RequestHandler {
  const publicOrigin = new URL(publicUrl).origin;
  return (req, res, next) => {
    if (SAFE_METHODS.has(req.method) || req.path.startsWith('/on-reco/')) return next();
    const ownOrigins = new Set([publicOrigin, `${req.protocol}://${req.get('host')}`]);
    if (!isCrossSite({ secFetchSite: req.get('Sec-Fetch-Site'), origin: req.get('Origin') }, ownOrigins)) return next();
    res.status(403).json({ error: 'forbidden', error_description: 'Cross-site requests are refused.' });
  };
}
