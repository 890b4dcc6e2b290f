import { json } from '@remix-run/node';
import { getDb } from '~/db/db.server';
import { getEnv } from '~/env.server';
import { checkReadiness } from '~/services/readiness.server';

// GET /readyz: 200 when the console can do its work (database reachable, migrations current,
// every worker lane beating), else 503 with the reasons. For a load balancer's and an operator's
// checks (docs/operations.md); public like /healthz, and it names nothing but the console's own state.
export async function loader() {
  const readiness = await checkReadiness(getDb(), new Date(), getEnv().ONRECO_WORKER_STALE_SECONDS * 1000);
  return json(readiness, { status: readiness.ready ? 200 : 503, headers: { 'Cache-Control': 'no-store' } });
}
