import { importEquipments as importCall } from '~/domain/api/sensor-settings';
import { apiAction, apiNotAllowed } from '~/http/api-route.server';
import { importError } from '~/http/failures.server';
import { importSensors } from '~/services/store-import.server';

// POST /v1/equipments/import {dry_run, store_id, sensors}: many sensors of one store, all or
// nothing (decision 153). Sensor registration's access: administrators and maintenance.
export const action = apiAction(importCall, async ({ viewer, input, db, now }) => {
  const result = await importSensors(db, viewer, input, now);
  return result.ok ? result.answer : importError(result);
});

export const loader = apiNotAllowed(importCall.path);
