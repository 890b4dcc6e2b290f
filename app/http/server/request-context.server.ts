import { AsyncLocalStorage } from 'node:async_hooks';

// What the request log line names besides the request itself: who made it. The access helpers
// know it (they resolve the token); the log middleware, which runs outside Remix, reads it here.

export interface RequestContext {
  userId?: number;
  gatewayStoreId?: string;
  /**
   * A read's answers by key (the signed-in user of a session token): the layout's and the page's
   * loaders of one GET ask the same. Only on GET and HEAD: a form post may change what it read.
   */
  remembered?: Map<string, Promise<unknown>>;
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

/** `load()` once per key within a GET or HEAD request; outside one (or elsewhere), every time. */
export function rememberedForRequest<T>(key: string, load: () => Promise<T>): Promise<T> {
  const remembered = storage.getStore()?.remembered;
  if (!remembered) return load();
  let answer = remembered.get(key) as Promise<T> | undefined;
  if (!answer) {
    answer = load();
    remembered.set(key, answer);
  }
  return answer;
}
