import { type ActionFunctionArgs, json } from '@remix-run/node';
import { gunzipSync } from 'node:zlib';
import { getDb } from '~/db/db.server';
import { ReadingsBatchSchema } from '~/domain/gateway-schemas';
import { apiError, requireGatewayStore } from '~/http/access.server';
import { methodNotAllowed, parseOrThrow } from '~/http/api.server';
import { ingestReadings } from '~/services/ingest.server';
import { logger } from '~/services/logger.server';

const MAX_BODY_BYTES = 8 * 1024 * 1024;
/** Batches in flight per web process; past it the gateway is told to come back (429), not failed. */
const MAX_IN_FLIGHT = 12;
let inFlight = 0;

// POST /v1/gateway/readings (gateway token; JSON, gzip allowed; up to 5,000 readings).
export async function action({ request }: ActionFunctionArgs) {
  if (request.method !== 'POST') return methodNotAllowed(['POST']);
  const storeId = await requireGatewayStore(request);
  if (inFlight >= MAX_IN_FLIGHT) {
    return json({ error: 'busy', error_description: 'The server is busy; retry later.' }, { status: 429, headers: { 'Retry-After': '2' } });
  }
  inFlight += 1;
  try {
    const batch = parseOrThrow(ReadingsBatchSchema, await readBody(request));
    if (batch.buffer_overflow) logger.child({ module: 'ingest' }).error({ storeId }, 'the gateway reports that its buffer overflowed and dropped readings');
    return json(await ingestReadings(getDb(), storeId, batch.readings, new Date()));
  } finally {
    inFlight -= 1;
  }
}

async function readBody(request: Request): Promise<unknown> {
  let body = Buffer.from(await request.arrayBuffer());
  if ((request.headers.get('Content-Encoding') ?? '').toLowerCase() === 'gzip') {
    try {
      body = gunzipSync(body, { maxOutputLength: MAX_BODY_BYTES });
    } catch {
      throw apiError(400, 'invalid_request', 'The body is not valid gzip or is too large.');
    }
  }
  if (body.length > MAX_BODY_BYTES) throw apiError(413, 'invalid_request', 'The body is too large.');
  try {
    return JSON.parse(body.toString('utf8'));
  } catch {
    throw apiError(400, 'invalid_request', 'The body is not valid JSON.');
  }
}
