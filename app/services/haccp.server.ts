import type { Db } from '~/db/db.server';
import {
  type HaccpSensorDay,
  type HaccpSignoff,
  dayWindow,
  daysOfMonth,
  evaluateSensorDay,
  issueCount,
  needsSignoff,
} from '~/domain/haccp';
import { audit } from '~/models/audit.server';
import { insertSignoff, listSignoffs, loadHaccpData, lockSignoffDay } from '~/models/haccp.server';
import type { Viewer } from '~/models/users.server';

// The HACCP daily record (issue 14 item 6, docs/decisions/146): a store day evaluated sensor by
// sensor, its sign-offs, signing it (one audit row in the same transaction), and a month of days
// for the PDF.

export const HACCP_SIGN_AUDIT_ACTION = 'haccp_record.sign';

export interface HaccpDay {
  store: { storeId: string; storeNo: string; storeName: string };
  day: string;
  sensors: HaccpSensorDay[];
  issues: number;
  signoffs: HaccpSignoff[];
  needsSignoff: boolean;
}

/** One store day. null when the store does not exist or the viewer may not see it. */
export async function getHaccpDay(db: Db, viewer: Viewer, storeId: string, day: string): Promise<HaccpDay | null> {
  const window = dayWindow(day);
  const data = await loadHaccpData(db, viewer, storeId, { ...window, firstDay: day });
  if (!data) return null;
  const sensors = data.sensors.map((sensor) => evaluateSensorDay(sensor, day, data.schedules));
  const signoffs = await listSignoffs(db, storeId, day, day);
  const issues = issueCount(sensors);
  return { store: data.store, day, sensors, issues, signoffs, needsSignoff: needsSignoff(signoffs, issues) };
}

export type SignOutcome = { day: HaccpDay; signoff: HaccpSignoff; alreadySigned: boolean };

/**
 * Signs a store day as the viewer. A day already signed with nothing new since is not signed
 * twice (alreadySigned, nothing written); a day with more alerts or excursions than its last
 * sign-off saw is signed again. null when the store is not the viewer's.
 */
export async function signHaccpDay(db: Db, viewer: Viewer, input: { storeId: string; day: string; note: string | null; now: Date }): Promise<SignOutcome | null> {
  return db.transaction().execute(async (trx) => {
    await lockSignoffDay(trx, input.storeId, input.day);
    const day = await getHaccpDay(trx, viewer, input.storeId, input.day);
    if (!day) return null;
    const latest = day.signoffs[day.signoffs.length - 1];
    if (latest && !day.needsSignoff) return { day, signoff: latest, alreadySigned: true };
    const signoff: HaccpSignoff = { userName: viewer.userName, signedAt: input.now, note: input.note, issueCount: day.issues };
    const signoffId = await insertSignoff(trx, { storeId: input.storeId, day: input.day, userId: viewer.userId, ...signoff });
    await audit(trx, {
      at: input.now,
      userId: viewer.userId,
      action: HACCP_SIGN_AUDIT_ACTION,
      targetType: 'haccp_signoff',
      targetId: signoffId,
      storeId: input.storeId,
      details: {
        before: latest ? { day: input.day, user_name: latest.userName, signed_at: latest.signedAt.toISOString(), note: latest.note, issue_count: latest.issueCount } : null,
        after: { day: input.day, user_name: signoff.userName, signed_at: signoff.signedAt.toISOString(), note: signoff.note, issue_count: signoff.issueCount },
      },
    });
    const signoffs = [...day.signoffs, signoff];
    return { day: { ...day, signoffs, needsSignoff: false }, signoff, alreadySigned: false };
  });
}

export interface HaccpMonth {
  store: HaccpDay['store'];
  month: string;
  days: { day: string; sensors: HaccpSensorDay[]; signoffs: HaccpSignoff[]; needsSignoff: boolean }[];
}

/** Every day of a month (YYYYMM) up to today, read in one pass. null when the store is not the viewer's. */
export async function getHaccpMonth(db: Db, viewer: Viewer, storeId: string, month: string, today: string): Promise<HaccpMonth | null> {
  const days = daysOfMonth(month).filter((day) => day <= today);
  const all = daysOfMonth(month);
  const from = dayWindow(all[0]).from;
  const to = dayWindow(all[all.length - 1]).to;
  const data = await loadHaccpData(db, viewer, storeId, { from, to, firstDay: all[0] });
  if (!data) return null;
  const signoffs = await listSignoffs(db, storeId, all[0], all[all.length - 1]);
  return {
    store: data.store,
    month,
    days: days.map((day) => {
      const sensors = data.sensors.map((sensor) => evaluateSensorDay(sensor, day, data.schedules));
      const own = signoffs.filter((s) => s.day === day);
      return { day, sensors, signoffs: own, needsSignoff: needsSignoff(own, issueCount(sensors)) };
    }),
  };
}
