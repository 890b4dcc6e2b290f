import type { Db } from '~/db/db.server';
import { type AuditEntry, audit } from '~/models/audit.server';
import type { DemoPlan } from './chain/plan';

// The demo chain's audit trail (issue 13 item 6): what the chain's administrators and
// maintenance staff did before day one, written through the one writer (so the seeded trail is
// a valid hash chain): each store opened, its gateway PIN issued, a few stores edited (before /
// after), a gateway exchanged. Deterministic from the plan; times before the readings start.

const HOUR_MS = 3600_000;

export async function seedAuditTrail(db: Db, plan: DemoPlan): Promise<number> {
  const users = await db.selectFrom('users').select(['user_id', 'login_id']).where('login_id', 'in', ['admin', 'maintenance']).execute();
  const idOf = (login: string) => users.find((user) => user.login_id === login)?.user_id ?? null;
  const admin = idOf('admin');
  const maintenance = idOf('maintenance') ?? admin;
  const start = plan.now.getTime() - (plan.days + 3) * 24 * HOUR_MS;
  const entries: AuditEntry[] = [];
  let step = 0;
  const at = () => new Date(start + (step += 1) * 7 * 60_000);
  for (const store of plan.stores) {
    const view = {
      store_no: store.storeNo,
      store_name: store.storeName,
      company_id: store.companyId,
      storegroup_id: store.storegroupId,
      prefecture_id: store.prefectureId,
      address: store.address,
      tel_no: store.telNo,
      opening_date: store.openingDate.replace(/-/g, ''),
      closing_date: store.closingDate ? store.closingDate.replace(/-/g, '') : null,
      gateway_info: store.gatewayInfo,
    };
    const target = { targetType: 'store', targetId: store.storeId, storeId: store.storeId };
    entries.push({ ...target, userId: admin, action: 'store.create', details: { before: null, after: view }, at: at() });
    if (store.gatewayInfo) entries.push({ ...target, userId: maintenance, action: 'gateway_pin.reissue', details: { effective_time: 'issued at installation' }, at: at() });
  }
  // A few edits after the openings: a phone number corrected, a renamed store, an exchanged gateway.
  const edited = plan.stores.filter((store) => store.gatewayInfo).slice(0, 3);
  for (const [i, store] of edited.entries()) {
    const target = { targetType: 'store', targetId: store.storeId, storeId: store.storeId };
    if (i === 0) entries.push({ ...target, userId: admin, action: 'store.update', details: { before: { tel_no: '0300000000' }, after: { tel_no: store.telNo } }, at: at() });
    if (i === 1) entries.push({ ...target, userId: admin, action: 'store.update', details: { before: { store_name: `${store.storeName}（仮）` }, after: { store_name: store.storeName } }, at: at() });
    if (i === 2) {
      entries.push({
        ...target,
        userId: maintenance,
        action: 'gateway.exchange',
        details: { before: { gateway_info: `${store.gatewayInfo}-OLD`, working_state: 1 }, after: { gateway_info: store.gatewayInfo, working_state: 0 } },
        at: at(),
      });
    }
  }
  await db.transaction().execute((trx) => audit(trx, entries));
  return entries.length;
}
