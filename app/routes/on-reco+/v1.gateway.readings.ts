import { json } from '@remix-run/node';
import { postReadings } from '~/domain/api/gateway';
import { apiAction, apiNotAllowed } from '~/http/api-route.server';
import { ingestReadings } from '~/services/ingest.server';
import { logger } from '~/services/logger.server';

/** Batches in flight per web process; past it the gateway is told to come back (429), not failed. */
const MAX_IN_FLIGHT = 12;
let inFlight = 0;

/** Counts a batch from before its body is read until it is stored; an authenticated gateway past the limit gets 429. */
async function inFlightLimit(next: () => Promise<Response>): Promise<Response> {
  if (inFlight >= MAX_IN_FLIGHT) {
    return json({ error: 'busy', error_description: 'The server is busy; retry later.' }, { status: 429, headers: { 'Retry-After': '2' } });
  }
  inFlight += 1;
  try {
    return await next();
  } finally {
    inFlight -= 1;
  }
}

// POST /v1/gateway/readings (gateway token; JSON, gzip allowed, at most 8 MB unpacked; up to 5,000 readings).
export const action = apiAction(
  postReadings,
  ({ storeId, input: batch, db, now }) => {
    if (batch.buffer_overflow) logger.child({ module: 'ingest' }).error({ storeId }, 'the gateway reports that its buffer overflowed and dropped readings');
    return ingestReadings(db, storeId, batch.readings, now);
  },
  { around: inFlightLimit },
);

export const loader = apiNotAllowed(postReadings.path);
