import { commentMeasurement } from '~/domain/api/sensors';
import { COMMENT_SNAP_MINUTES } from '~/domain/graph';
import { toCompactDateTime } from '~/domain/japan-time';
import { apiError } from '~/http/access.server';
import { apiAction, apiNotAllowed } from '~/http/api-route.server';
import { invalidRequest } from '~/http/api.server';
import { saveMeasurementComment } from '~/models/graph.server';

// POST /v1/equipments/measurement/comment {equipment_id, start_date, comment} (000 §7 "comment
// registration", path ours): the comment on the reading nearest to start_date within 5 minutes;
// an empty comment removes it. Only for a sensor with comment_required = 1 (000 §5), else 400;
// a sensor the caller may not see is 404. Answers the reading's own start_date.
export const action = apiAction(commentMeasurement, async ({ viewer, input, db }) => {
  const outcome = await saveMeasurementComment(db, viewer, { equipmentId: input.equipment_id, at: input.start_date, comment: input.comment });
  if (!outcome.ok) {
    if (outcome.reason === 'not_found') return apiError(404, 'not_found', `Equipment ${input.equipment_id} was not found.`);
    if (outcome.reason === 'not_allowed') return invalidRequest({ equipment_id: 'this sensor does not take comments (comment_required is 0)' });
    return invalidRequest({ start_date: `no reading of this sensor within ${COMMENT_SNAP_MINUTES} minutes of start_date` });
  }
  return { equipment_id: outcome.equipmentId, start_date: toCompactDateTime(outcome.measuredAt), comment: outcome.comment };
});

export const loader = apiNotAllowed(commentMeasurement.path);
