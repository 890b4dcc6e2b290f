import { AsyncLocalStorage } from 'node:async_hooks';

// What the request log line names besides the request itself: who made it. The access helpers
// know it (they resolve the token); the log middleware, which runs outside Remix, reads it here.

export interface RequestContext {
  userId?: number;
  gatewayStoreId?: string;
}

// One store per process, whichever copy of this module asks: the web server (scripts/server.ts)
// loads it from the sources, the routes from the Remix build, which bundles its own copy.
const KEY = Symbol.for('onreco.request-context');
const storage: AsyncLocalStorage<RequestContext> = ((globalThis as Record<symbol, unknown>)[KEY] ??= new AsyncLocalStorage<RequestContext>()) as AsyncLocalStorage<RequestContext>;

export function runWithRequestContext<T>(context: RequestContext, fn: () => T): T {
  return storage.run(context, fn);
}

export function noteRequestUser(userId: number): void {
  const context = storage.getStore();
  if (context) context.userId = userId;
}

export function noteRequestGateway(storeId: string): void {
  const context = storage.getStore();
  if (context) context.gatewayStoreId = storeId;
}
