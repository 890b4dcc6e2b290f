import type { Migration } from 'kysely/migration';
import * as initialSchema from './2026-11-21-01-initial-schema';
import * as temporaryPasswords from './2026-11-21-02-temporary-passwords';
import * as gatewayPairing from './2026-11-21-03-gateway-pairing';
import * as dashboardOrder from './2026-11-21-04-dashboard-order';
import * as measurementBuckets from './2026-11-22-30-measurement-buckets';
import * as requestLimits from './2026-11-24-10-request-limits';

// Every migration, in order. A static list (rather than reading the folder at run time) works
// the same under tsx, vitest and a bundled server. Add new migrations at the end.
export const migrations: Record<string, Migration> = {
  '2026-11-21-01-initial-schema': initialSchema,
  '2026-11-21-02-temporary-passwords': temporaryPasswords,
  '2026-11-21-03-gateway-pairing': gatewayPairing,
  '2026-11-21-04-dashboard-order': dashboardOrder,
  '2026-11-22-30-measurement-buckets': measurementBuckets,
  '2026-11-24-10-request-limits': requestLimits,
};
