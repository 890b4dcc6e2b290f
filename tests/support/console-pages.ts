import type { Db } from '../../app/db/db.server';
import { appUrl, masterUrl, reportUrl, storeUrl } from '../../app/domain/urls';

export interface ConsolePage {
  name: string;
  path: string;
}

/**
 * Every screen of the console the demo chain has, as an administrator sees it: the store pages
 * of the demo store with the most sensors (and a floor plan), the masters' lists and forms.
 */
export async function consolePages(db: Db): Promise<ConsolePage[]> {
  const store = await db
    .selectFrom('stores as st')
    .innerJoin('diagrams as d', 'd.store_id', 'st.store_id')
    .select(['st.store_id', (eb) => eb.selectFrom('sensors as s').select((c) => c.fn.countAll<number>().as('n')).whereRef('s.store_id', '=', 'st.store_id').as('sensors')])
    .where('st.working_state', '=', 1)
    .orderBy('sensors', 'desc')
    .orderBy('st.store_id')
    .executeTakeFirstOrThrow();
  const storeId = store.store_id;
  const sensor = await db.selectFrom('sensors').select('equipment_id').where('store_id', '=', storeId).orderBy('equipment_id').executeTakeFirstOrThrow();
  const user = await db.selectFrom('users').select('user_id').where('login_id', '=', 'storeuser').executeTakeFirstOrThrow();
  const usergroup = await db.selectFrom('usergroups').select('usergroup_id').orderBy('usergroup_id').executeTakeFirstOrThrow();
  const company = await db.selectFrom('companies').select('company_id').orderBy('company_id').executeTakeFirstOrThrow();
  const storegroup = await db.selectFrom('storegroups').select('storegroup_id').orderBy('storegroup_id').executeTakeFirstOrThrow();
  const today = new Intl.DateTimeFormat('sv-SE', { timeZone: 'Asia/Tokyo' }).format(new Date()).replaceAll('-', '');
  return [
    { name: 'dashboard', path: appUrl.dashboard },
    { name: 'sensor-image', path: storeUrl.sensors(storeId, 'image') },
    { name: 'sensor-list', path: storeUrl.sensors(storeId, 'list') },
    { name: 'graphs', path: storeUrl.graphs(storeId, { equipment_id: sensor.equipment_id, start_date: today }) },
    { name: 'alert-history', path: storeUrl.alertHistory(storeId) },
    { name: 'floor-plan', path: storeUrl.diagram(storeId) },
    { name: 'store-management', path: storeUrl.management(storeId) },
    { name: 'store-edit', path: storeUrl.infoEdit(storeId) },
    { name: 'sensor-edit', path: storeUrl.sensorEdit(storeId, sensor.equipment_id) },
    { name: 'sensors-show-sensors', path: storeUrl.sensorSettings(storeId, { tab: 'sensors' }) },
    { name: 'sensors-show-furniture', path: storeUrl.sensorSettings(storeId, { tab: 'furniture' }) },
    { name: 'sensors-show-users', path: storeUrl.sensorSettings(storeId, { tab: 'users' }) },
    { name: 'sensors-show-diagram', path: storeUrl.sensorSettings(storeId, { tab: 'diagram' }) },
    { name: 'sensors-show-alert-stop', path: storeUrl.sensorSettings(storeId, { tab: 'alert-stop' }) },
    { name: 'alert-stops', path: storeUrl.alertStops(storeId, today, today) },
    { name: 'reports', path: reportUrl.list(storeId) },
    { name: 'reports-regular', path: reportUrl.list(storeId, 'reqular') },
    { name: 'report-create', path: reportUrl.create(storeId) },
    { name: 'haccp', path: storeUrl.haccp(storeId) },
    { name: 'store-users-create', path: storeUrl.userCreate(storeId) },
    { name: 'store-create', path: appUrl.storeCreate },
    { name: 'user-master', path: appUrl.userMaster },
    { name: 'user-create', path: appUrl.userCreate },
    { name: 'user-edit', path: appUrl.userEdit(user.user_id) },
    { name: 'usergroup-master', path: appUrl.usergroupMaster },
    { name: 'usergroup-edit', path: masterUrl.usergroupEdit(usergroup.usergroup_id) },
    { name: 'company-master', path: appUrl.companyMaster },
    { name: 'company-edit', path: masterUrl.companyEdit(company.company_id) },
    { name: 'storegroup-master', path: appUrl.storegroupMaster },
    { name: 'storegroup-edit', path: masterUrl.storegroupEdit(storegroup.storegroup_id) },
    { name: 'notice-create', path: appUrl.noticeCreate },
    { name: 'audit-log', path: appUrl.auditLog },
    { name: 'gateways', path: appUrl.gatewayList },
    { name: 'password-edit', path: appUrl.passwordEdit },
    { name: 'quiet-hours-edit', path: appUrl.quietHoursEdit },
  ];
}
