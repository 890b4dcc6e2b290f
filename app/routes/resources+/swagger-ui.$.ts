import type { LoaderFunctionArgs } from '@remix-run/node';
import { packageFileResponse, packageRoot } from '~/http/package-files.server';

// swagger-ui as shipped (swagger-ui-dist), for the API reference at /on-reco/docs: the bundle,
// its stylesheet and its favicon, from our own origin (no CDN; the CSP allows only 'self').
const ROOT = packageRoot('swagger-ui-dist');
const ALLOWED = /^(swagger-ui-bundle\.js|swagger-ui\.css|favicon-(?:16x16|32x32)\.png)$/;

export function loader({ params }: LoaderFunctionArgs) {
  return packageFileResponse(ROOT, params['*'] ?? '', ALLOWED);
}
