import { getQuietHours as getCall, saveQuietHours as saveCall } from '~/domain/api/auth';
import { minuteOfDayText, type QuietHours } from '~/domain/quiet-hours';
import { apiAction, apiLoader } from '~/http/api-route.server';
import { getQuietHours } from '~/models/users.server';
import { saveOwnQuietHours } from '~/services/quiet-hours.server';

// /v1/user/quiet_hours: the signed-in user's own quiet hours (decision 315).

const toAnswer = (quiet: QuietHours | null) => ({ quiet_start: quiet ? minuteOfDayText(quiet.startMinute) : null, quiet_end: quiet ? minuteOfDayText(quiet.endMinute) : null });

export const loader = apiLoader(getCall, async ({ viewer, db }) => toAnswer(await getQuietHours(db, viewer.userId)));

export const action = apiAction(saveCall, async ({ viewer, input, db, now }) => {
  await saveOwnQuietHours(db, viewer, input, now);
  return toAnswer(input);
});
