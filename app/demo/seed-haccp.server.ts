import { sql } from 'kysely';
import type { Db } from '~/db/db.server';
import { toCompactDate } from '~/domain/japan-time';
import { shiftDay } from '~/domain/haccp';
import { AUTHORITY } from '~/domain/roles';
import { getHaccpDay, signHaccpDay } from '~/services/haccp.server';

// The demo chain's HACCP record: each store's staff signed most of the last two weeks' days
// (every fourth store left yesterday unsigned, and one day in seven is skipped), through the same
// service as the page, so each sign-off has its audit row and saw the day's real issues.

const SIGN_HOUR_MS = 21 * 3_600_000; // signed at 21:00 Japan time on the day

export async function seedHaccpSignoffs(db: Db, now: Date, days: number): Promise<number> {
  const stores = await sql<{ store_id: string; user_id: number; user_name: string; login_id: string }>`
    select distinct on (s.store_id) s.store_id, u.user_id, u.user_name, u.login_id
    from stores s
    join store_usergroups su on su.store_id = s.store_id
    join usergroups g on g.usergroup_id = su.usergroup_id and g.usergroup_authority = ${AUTHORITY.storeUser}
    join user_usergroups uu on uu.usergroup_id = g.usergroup_id
    join users u on u.user_id = uu.user_id and u.valid_flg = 1
    where exists (select 1 from sensors x where x.store_id = s.store_id)
    order by s.store_id, u.user_id`.execute(db);
  const today = toCompactDate(now);
  let signed = 0;
  for (const [index, store] of stores.rows.entries()) {
    const viewer = { userId: store.user_id, loginId: store.login_id, userName: store.user_name, authority: AUTHORITY.storeUser, language: 'JP' as const, mailaddress1: null };
    for (let back = Math.min(days, 14); back >= 1; back--) {
      const day = shiftDay(today, -back);
      if ((back + index) % 7 === 3 || (back === 1 && index % 4 === 0)) continue;
      const record = await getHaccpDay(db, viewer, store.store_id, day);
      if (!record || record.sensors.every((s) => s.result === 'no_data')) continue;
      const dayStart = new Date(`${day.slice(0, 4)}-${day.slice(4, 6)}-${day.slice(6, 8)}T00:00:00+09:00`);
      const note = record.issues > 0 ? '逸脱を確認し、改善措置を記録しました' : null;
      const outcome = await signHaccpDay(db, viewer, { storeId: store.store_id, day, note, now: new Date(dayStart.getTime() + SIGN_HOUR_MS) });
      if (outcome && !outcome.alreadySigned) signed++;
    }
  }
  return signed;
}
