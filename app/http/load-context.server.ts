import type { AppLoadContext } from '@remix-run/node';
import type { ClientOrigin } from '~/models/request-limits.server';

// What the web server (app/http/server/web-server.server.ts) hands every loader and action
// besides the Request. In-process calls (the API tests) pass an empty context.
declare module '@remix-run/node' {
  interface AppLoadContext {
    /** The request's CSP nonce, for Remix's inline scripts. */
    cspNonce?: string;
    /** The client's address as the server saw it. */
    clientAddress?: string;
  }
}

export function clientOriginOf(context: AppLoadContext): ClientOrigin {
  return { address: context.clientAddress ?? 'unknown' };
}
