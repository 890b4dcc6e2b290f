import { SENSOR_MESSAGES } from '~/domain/sensor-settings';
import type { SensorSaveFailure } from '~/services/sensor-settings.server';
import { apiError } from './access.server';
import { invalidRequest } from './api.server';

/** A refused sensor save as the API answers it (the console form shows the same fields). */
export function sensorSaveError(failure: SensorSaveFailure, input: { store_id: string; equipment_id: number | null }): Response {
  switch (failure.reason) {
    case 'not_found':
      return apiError(404, 'not_found', input.equipment_id === null ? `Store ${input.store_id} was not found.` : `Equipment ${input.equipment_id} was not found in store ${input.store_id}.`);
    case 'forbidden':
      return apiError(403, 'forbidden', 'Registering a sensor is store management (administrators and maintenance).');
    case 'stale':
      return apiError(409, 'conflict', 'The sensor was saved by someone else after updated_at; load it again.', { message: SENSOR_MESSAGES.stale });
    case 'duplicate':
      return apiError(400, 'duplicate_value', 'The same value can not be registered: serial_no', { fields: failure.fields });
    case 'invalid':
      return invalidRequest(failure.fields);
  }
}
