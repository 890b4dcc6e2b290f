import type { ServerBuild } from '@remix-run/node';
import { type AgnosticRouteObject, matchRoutes } from '@remix-run/router';
import type { RequestHandler } from 'express';
import type { Logger } from 'pino';
import { recordRequest } from '~/services/metrics.server';
import { type RequestContext, runWithRequestContext } from './request-context.server';

// One log line per request: method, the route's path template (never the URL itself, which may
// carry ids and dates the log does not need), status, duration, the client's address, and the user
// or gateway. No header, body or query is logged, so no token, password or PIN ever reaches the
// log. Routine gateway uploads and console data refreshes are debug; the rest is info, 4xx warn, 5xx error.

/** The build's routes as a tree, as Remix matches them (also the route-matching bench's). */
export function routeTree(build: ServerBuild): AgnosticRouteObject[] {
  const children = new Map<string | undefined, AgnosticRouteObject[]>();
  for (const route of Object.values(build.routes)) {
    const list = children.get(route.parentId) ?? [];
    list.push({ id: route.id, path: route.path, index: route.index as false | undefined, caseSensitive: route.caseSensitive });
    children.set(route.parentId, list);
  }
  const attach = (routes: AgnosticRouteObject[]): AgnosticRouteObject[] =>
    routes.map((route) => (route.index ? route : { ...route, children: attach(children.get(route.id) ?? []) }));
  return attach(children.get(undefined) ?? []);
}

/**
 * The route's path template for a URL path. Remix's single-fetch data requests ask for the page's
 * path plus `.data` (`/_root.data` for the root): they are named after their page.
 */
export function pathTemplateOf(routes: AgnosticRouteObject[], pathname: string): string {
  const page = pathname === '/_root.data' ? '/' : pathname.replace(/\.data$/, '');
  const matches = matchRoutes(routes, page);
  if (!matches) return 'unmatched';
  const template = matches.map((match) => match.route.path).filter(Boolean).join('/');
  return `/${template}`.replace(/\/+/g, '/');
}

/**
 * pathTemplateOf, remembered per path: a match walks the ranked branches of the whole route tree
 * (about 0.1 ms even with decision 194's patch, on every request), and most requests repeat a path
 * (every gateway posts to the same one). Paths with ids are many, so the memory is bounded: full,
 * it starts over.
 */
function templateMemo(routes: AgnosticRouteObject[], limit = 5000): (pathname: string) => string {
  const known = new Map<string, string>();
  return (pathname) => {
    let template = known.get(pathname);
    if (template === undefined) {
      if (known.size >= limit) known.clear();
      template = pathTemplateOf(routes, pathname);
      known.set(pathname, template);
    }
    return template;
  };
}

const isRoutine = (template: string, status: number) => status < 400 && (template.startsWith('/on-reco/v1/gateway/') || template.startsWith('/resources/'));

export function requestLog(build: ServerBuild, log: Logger): RequestHandler {
  const templateOf = templateMemo(routeTree(build));
  return (req, res, next) => {
    const started = performance.now();
    const context: RequestContext = req.method === 'GET' || req.method === 'HEAD' ? { remembered: new Map() } : {};
    res.once('finish', () => {
      const template = templateOf(req.path);
      const line = {
        method: req.method,
        path: template,
        status: res.statusCode,
        ms: Math.round((performance.now() - started) * 10) / 10,
        // The client's, as TRUST_PROXY makes Express read it: the address the limits counted.
        address: req.ip,
        ...(context.userId !== undefined ? { userId: context.userId } : {}),
        ...(context.gatewayStoreId !== undefined ? { gatewayStoreId: context.gatewayStoreId } : {}),
      };
      const level = res.statusCode >= 500 ? 'error' : res.statusCode >= 400 ? 'warn' : isRoutine(template, res.statusCode) ? 'debug' : 'info';
      log[level](line, 'request');
      recordRequest(req.method, template, res.statusCode, line.ms / 1000);
    });
    runWithRequestContext(context, next);
  };
}
