import { listMeasureTargetKinds as listCall } from '~/domain/api/sensor-settings';
import { apiLoader, apiNotAllowed } from '~/http/api-route.server';
import { listMeasureTargetKinds } from '~/models/sensor-settings.server';

// GET /v1/measure_target_equipments: the measured furniture kinds (001 §7).
export const loader = apiLoader(listCall, ({ db }) => listMeasureTargetKinds(db));

export const action = apiNotAllowed(listCall.path);
