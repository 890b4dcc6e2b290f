import { getHaccpRecord, signHaccpRecord } from '~/domain/api/haccp';
import { HACCP_TEXTS, haccpRecordAnswer, isFutureDay, signoffAnswer } from '~/domain/haccp';
import { apiError } from '~/http/access.server';
import { apiAction, apiLoader } from '~/http/api-route.server';
import { getHaccpDay, signHaccpDay } from '~/services/haccp.server';

// GET /v1/haccp_record?store_id&date=YYYYMMDD → the store day's HACCP record (docs/decisions/146).
export const loader = apiLoader(getHaccpRecord, async ({ viewer, input, db }) => {
  const day = await getHaccpDay(db, viewer, input.store_id, input.date);
  if (!day) throw apiError(404, 'not_found', 'No such store.');
  return haccpRecordAnswer(day);
});

// POST /v1/haccp_record {store_id, date, note?}: signs the day as the caller (one audit row).
export const action = apiAction(signHaccpRecord, async ({ viewer, input, db, now }) => {
  if (isFutureDay(input.date, now)) throw apiError(400, 'invalid_request', HACCP_TEXTS.futureDay, { fields: { date: HACCP_TEXTS.futureDay } });
  const outcome = await signHaccpDay(db, viewer, { storeId: input.store_id, day: input.date, note: input.note, now });
  if (!outcome) throw apiError(404, 'not_found', 'No such store.');
  return { store_id: input.store_id, date: input.date, ...signoffAnswer(outcome.signoff), already_signed: outcome.alreadySigned ? (1 as const) : (0 as const) };
});
