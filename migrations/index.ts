import type { Migration } from 'kysely/migration';
import * as initialSchema from './2026-11-21-01-initial-schema';
import * as temporaryPasswords from './2026-11-21-02-temporary-passwords';
import * as gatewayPairing from './2026-11-21-03-gateway-pairing';
import * as dashboardOrder from './2026-11-21-04-dashboard-order';
import * as measurementBuckets from './2026-11-22-30-measurement-buckets';
import * as requestLimits from './2026-11-24-10-request-limits';
import * as sensorSettings from './2026-11-24-20-sensor-settings';
import * as userMaster from './2026-11-24-30-user-master';
import * as auditHashChain from './2026-11-24-32-audit-hash-chain';
import * as reportJobs from './2026-11-24-40-report-jobs';
import * as haccpSignoffs from './2026-11-24-41-haccp-signoffs';
import * as gatewayHealth from './2026-11-24-50-gateway-health';
import * as auditCheckpoint from './2026-11-24-62-audit-checkpoint';
import * as usersLiveIndex from './2026-11-24-63-users-live-index';
import * as groupMembersIndex from './2026-11-24-73-group-members-index';
import * as gatewayListFlags from './2026-11-24-76-gateway-list-flags';
import * as storeListEntries from './2026-11-24-80-store-list-entries';
import * as jobRuns from './2026-11-24-84-job-runs';
import * as sensorIdIndex from './2026-11-24-86-sensor-id-index';
import * as reportBuckets from './2026-11-24-90-report-buckets';
import * as storesHotContact from './2026-11-24-95-stores-hot-contact';
import * as reportContentLz4 from './2026-11-24-96-report-content-lz4';
import * as citusReadyKeys from './2026-11-28-30-citus-ready-keys';
import * as storeListEntriesByModels from './2026-11-28-31-store-list-entries-by-models';
import * as escalation from './2026-11-28-50-escalation';
import * as alertSimulatedTemperature from './2026-11-28-60-alert-simulated-temperature';
import * as bucketsWithoutTriggers from './2026-11-28-81-buckets-without-triggers';
import * as webhooks from './2026-11-28-85-webhooks';
import * as gatewayReleases from './2026-11-28-90-gateway-releases';
import * as settingsTemplates from './2026-11-28-92-settings-templates';
import * as equipmentIndicators from './2026-11-28-93-equipment-indicators';
import * as reportAppendix from './2026-11-28-96-report-appendix';
import * as quietHours from './2026-11-29-30-quiet-hours';

// Every migration, in order. A static list (rather than reading the folder at run time) works
// the same under tsx, vitest and a bundled server. Add new migrations at the end.
import * as workerHeartbeats from './2026-11-28-10-worker-heartbeats';
import * as equipmentDriftFlags from './2026-11-29-20-equipment-drift-flags';
export const migrations: Record<string, Migration> = {
  '2026-11-21-01-initial-schema': initialSchema,
  '2026-11-21-02-temporary-passwords': temporaryPasswords,
  '2026-11-21-03-gateway-pairing': gatewayPairing,
  '2026-11-21-04-dashboard-order': dashboardOrder,
  '2026-11-22-30-measurement-buckets': measurementBuckets,
  '2026-11-24-10-request-limits': requestLimits,
  '2026-11-24-20-sensor-settings': sensorSettings,
  '2026-11-24-30-user-master': userMaster,
  '2026-11-24-32-audit-hash-chain': auditHashChain,
  '2026-11-24-40-report-jobs': reportJobs,
  '2026-11-24-41-haccp-signoffs': haccpSignoffs,
  '2026-11-24-50-gateway-health': gatewayHealth,
  '2026-11-24-62-audit-checkpoint': auditCheckpoint,
  '2026-11-24-63-users-live-index': usersLiveIndex,
  '2026-11-24-73-group-members-index': groupMembersIndex,
  '2026-11-24-76-gateway-list-flags': gatewayListFlags,
  '2026-11-24-80-store-list-entries': storeListEntries,
  '2026-11-24-84-job-runs': jobRuns,
  '2026-11-24-86-sensor-id-index': sensorIdIndex,
  '2026-11-24-90-report-buckets': reportBuckets,
  '2026-11-24-95-stores-hot-contact': storesHotContact,
  '2026-11-24-96-report-content-lz4': reportContentLz4,
  '2026-11-28-30-citus-ready-keys': citusReadyKeys,
  '2026-11-28-31-store-list-entries-by-models': storeListEntriesByModels,
  '2026-11-28-10-worker-heartbeats': workerHeartbeats,
  '2026-11-28-50-escalation': escalation,
  '2026-11-28-60-alert-simulated-temperature': alertSimulatedTemperature,
  '2026-11-28-81-buckets-without-triggers': bucketsWithoutTriggers,
  '2026-11-28-85-webhooks': webhooks,
  '2026-11-28-90-gateway-releases': gatewayReleases,
  '2026-11-28-92-settings-templates': settingsTemplates,
  '2026-11-28-93-equipment-indicators': equipmentIndicators,
  '2026-11-28-96-report-appendix': reportAppendix,
  '2026-11-29-20-equipment-drift-flags': equipmentDriftFlags,
  '2026-11-29-30-quiet-hours': quietHours,
};
