import { Readable } from 'node:stream';
import type { ActionFunction, AppLoadContext, ServerBuild } from '@remix-run/node';
import type { RequestHandler, Response as ExpressResponse } from 'express';

// The readings call is the one hot path (a post a minute from every store, docs/decisions/221):
// its route module's action, taken from the build, is called straight from express, without
// Remix's router, the browser's security headers or compression (its answers are a few dozen
// bytes). The action is the declared API route (app/domain/api), so its authentication, input
// checks and answers are the same as through Remix, and the API tests still call it.

export function leanAction(build: ServerBuild, routeId: string, contextOf: (req: Parameters<RequestHandler>[0]) => AppLoadContext): RequestHandler {
  const action = build.routes[routeId]?.module.action as ActionFunction | undefined;
  if (!action) throw new Error(`no action in the build's route ${routeId}`);
  return (req, res, next) => {
    const headers = new Headers();
    for (let i = 0; i < req.rawHeaders.length; i += 2) headers.append(req.rawHeaders[i], req.rawHeaders[i + 1]);
    const request = new Request(`http://${req.headers.host ?? 'localhost'}${req.originalUrl}`, {
      method: req.method,
      headers,
      body: Readable.toWeb(req) as ReadableStream<Uint8Array>,
      duplex: 'half',
    } as RequestInit);
    Promise.resolve()
      .then(() => action({ request, context: contextOf(req), params: {} }))
      .then(
        (answer) => send(answer, res),
        // The API routes throw their refusals (401, 429) as Responses, as Remix allows.
        (thrown: unknown) => (thrown instanceof Response ? send(thrown, res) : Promise.reject(thrown)),
      )
      .catch(next);
  };
}

async function send(answer: unknown, res: ExpressResponse): Promise<void> {
  if (!(answer instanceof Response)) throw new Error('the lean route answers with a Response');
  const body = Buffer.from(await answer.arrayBuffer());
  res.status(answer.status);
  answer.headers.forEach((value, name) => res.setHeader(name, value));
  res.setHeader('Content-Length', body.length);
  res.end(body);
}
