import { postReadings } from '~/domain/api/gateway';
import { apiAction, apiNotAllowed } from '~/http/api-route.server';
import { discardBody } from '~/http/api.server';
import { retryLater } from '~/http/failures.server';
import { HealthReportSchema } from '~/domain/gateway-health';
import { recordGatewayHealth } from '~/services/gateway-health.server';
import { getEnv } from '~/env.server';
import { ingestWriterOf } from '~/services/ingest-writer.server';
import { logger } from '~/services/logger.server';

/** Batches in flight per web process (most of them wait in the ingest writer's window, docs/decisions/220); past it the gateway is told to come back (429), not failed. Below the process's cap of 64 requests so pages still get through. READINGS_MAX_IN_FLIGHT sets it (the tests reach it with 1). */
const MAX_IN_FLIGHT = Number(process.env.READINGS_MAX_IN_FLIGHT) || 48;
let inFlight = 0;

/** A refused batch is read to its end (at most what the call takes) before the 429, so the gateway sees the status, not a reset. */
const MAX_BODY_BYTES = postReadings.input.maxBytes ?? Number.POSITIVE_INFINITY;

/** Counts a batch from before its body is read until it is stored; an authenticated gateway past the limit gets 429. */
async function inFlightLimit(next: () => Promise<Response>, request: Request): Promise<Response> {
  if (inFlight >= MAX_IN_FLIGHT) {
    await discardBody(request, MAX_BODY_BYTES);
    return retryLater('busy', 'The server is busy; retry later.', 2);
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
  async ({ storeId, input: batch, db, now }) => {
    if (batch.buffer_overflow) logger.child({ module: 'ingest' }).error({ storeId }, 'the gateway reports that its buffer overflowed and dropped readings');
    const env = getEnv();
    const writer = ingestWriterOf(db, { windowMs: env.ONRECO_INGEST_WINDOW_MS, maxReadings: env.ONRECO_INGEST_BATCH_READINGS, lanes: env.ONRECO_INGEST_WRITERS });
    const answer = await writer.submit(storeId, batch.readings, now);
    if (batch.health === undefined) return answer;
    // The health report rides along (docs/decisions/160): checked on its own, so a bad one never costs the readings.
    const health = HealthReportSchema.safeParse(batch.health);
    if (!health.success) {
      const reason = health.error.issues.map((issue) => `health.${issue.path.join('.')}: ${issue.message}`).join('; ');
      logger.child({ module: 'ingest' }).warn({ storeId, reason }, 'health report with the batch refused');
      return { ...answer, health_error: reason };
    }
    await recordGatewayHealth(db, storeId, health.data, now);
    return answer;
  },
  { around: inFlightLimit },
);

export const loader = apiNotAllowed(postReadings.path);
