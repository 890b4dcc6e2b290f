import type { LoaderFunctionArgs } from '@remix-run/node';
import { getDb } from '~/db/db.server';
import { getEnv } from '~/env.server';
import { metricsAllowed } from '~/http/metrics-access.server';
import { METRICS_CONTENT_TYPE, metricsText } from '~/services/metrics.server';

// GET /metrics: Prometheus text (app/services/metrics.server.ts; docs/operations.md). Not for the
// public: answered with a bearer ONRECO_METRICS_TOKEN, or without one set to a scraper on this host
// that came through no proxy; anyone else gets a 404, as for a page that is not there.
export async function loader({ request, context }: LoaderFunctionArgs) {
  if (!metricsAllowed(request, context.clientAddress, getEnv().ONRECO_METRICS_TOKEN)) throw new Response('Not Found', { status: 404 });
  return new Response(await metricsText(getDb(), new Date()), { headers: { 'Content-Type': METRICS_CONTENT_TYPE, 'Cache-Control': 'no-store' } });
}
