import { type ActionFunctionArgs, json } from '@remix-run/node';
import { getDb } from '~/db/db.server';
import { COMMENT_SNAP_MINUTES } from '~/domain/graph';
import { MeasurementCommentSchema } from '~/domain/graph-schemas';
import { toCompactDateTime } from '~/domain/japan-time';
import { saveMeasurementComment } from '~/models/graph.server';
import { apiError, requireApiUser } from '~/http/access.server';
import { bodyOf, invalidRequest, methodNotAllowed, parseOrThrow } from '~/http/api.server';

// POST /v1/equipments/measurement/comment {equipment_id, start_date, comment} (000 §7 "comment
// registration", path ours): the comment on the reading nearest to start_date within 5 minutes;
// an empty comment removes it. Only for a sensor with comment_required = 1 (000 §5), else 400;
// a sensor the caller may not see is 404. Answers the reading's own start_date.
export async function action({ request }: ActionFunctionArgs) {
  if (request.method !== 'POST') return methodNotAllowed(['POST']);
  const viewer = await requireApiUser(request);
  const input = parseOrThrow(MeasurementCommentSchema, await bodyOf(request));
  const outcome = await saveMeasurementComment(getDb(), viewer, { equipmentId: input.equipment_id, at: input.start_date, comment: input.comment });
  if (!outcome.ok) {
    if (outcome.reason === 'not_found') return apiError(404, 'not_found', `Equipment ${input.equipment_id} was not found.`);
    if (outcome.reason === 'not_allowed') return invalidRequest({ equipment_id: 'this sensor does not take comments (comment_required is 0)' });
    return invalidRequest({ start_date: `no reading of this sensor within ${COMMENT_SNAP_MINUTES} minutes of start_date` });
  }
  return json({ equipment_id: outcome.equipmentId, start_date: toCompactDateTime(outcome.measuredAt), comment: outcome.comment });
}

export const loader = () => methodNotAllowed(['POST']);
