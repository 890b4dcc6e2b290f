import type { LoaderFunctionArgs } from '@remix-run/node';
import { getOpenApi } from '~/domain/api/openapi';

// GET /on-reco/docs: the API reference for scripters, a page (not an API call: see NOT_CALLS in
// app/domain/api/index.ts). swagger-ui, served from our own origin (resources+/swagger-ui.$.ts),
// draws /on-reco/openapi.json. Under the CSP (no inline script without this request's nonce),
// so both script tags carry the nonce; no topbar (its URL box would load other descriptions) and
// no validator badge (an image from swagger.io).

const ASSETS = '/resources/swagger-ui';

/** swagger-ui's settings: the description's calls listed by tag, each opened on a click. */
const SETTINGS = {
  url: getOpenApi.path,
  dom_id: '#swagger-ui',
  layout: 'BaseLayout',
  deepLinking: true,
  docExpansion: 'list',
  defaultModelsExpandDepth: 0,
  displayOperationId: true,
  filter: true,
  validatorUrl: null,
};

function page(nonce: string): string {
  const attribute = nonce.replace(/[^A-Za-z0-9+/=]/g, '');
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>On-Reco API reference</title>
<link rel="icon" href="/favicon.svg" type="image/svg+xml">
<link rel="stylesheet" href="${ASSETS}/swagger-ui.css">
</head>
<body>
<div id="swagger-ui"></div>
<script nonce="${attribute}" src="${ASSETS}/swagger-ui-bundle.js"></script>
<script nonce="${attribute}">
window.ui = SwaggerUIBundle(Object.assign(${JSON.stringify(SETTINGS)}, { presets: [SwaggerUIBundle.presets.apis] }));
</script>
</body>
</html>
`;
}

export function loader({ context }: LoaderFunctionArgs) {
  return new Response(page(context.cspNonce ?? ''), {
    headers: { 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'no-store' },
  });
}
