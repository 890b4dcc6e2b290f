import { postHeardSensors as heardCall } from '~/domain/api/sensor-settings';
import { apiAction, apiNotAllowed } from '~/http/api-route.server';
import { storeHeardSensors } from '~/models/sensor-settings.server';

// POST /v1/gateway/heard (gateway token): the BLE sensors the gateway hears that are not in its config.
export const action = apiAction(heardCall, async ({ storeId, input, db, now }) => ({ stored: await storeHeardSensors(db, storeId, input.sensors, now) }));

export const loader = apiNotAllowed(heardCall.path);
