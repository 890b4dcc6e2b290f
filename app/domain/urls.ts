// The console's URLs, built in one place: components, routes, services (mail links) and tests
// call these instead of writing `/stores/${id}/...` again. Paths follow the specifications'
// screen URLs (000 §2, 001 §2); a store id is always encoded.

/** Query values; undefined and null leave the parameter out. Order is kept. */
export type Query = Record<string, string | number | undefined | null>;

/** A path with its query: an object, or a search string ("?a=1", "a=1" or "" / "?" for none). */
export function withQuery(path: string, query?: Query | string): string {
  if (query === undefined) return path;
  if (typeof query === 'string') {
    const search = query.replace(/^\?/, '');
    return search ? `${path}?${search}` : path;
  }
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) if (value !== undefined && value !== null) params.set(name, String(value));
  return withQuery(path, params.toString());
}

const storeBase = (storeId: string) => `/stores/${encodeURIComponent(storeId)}`;

/** The sensor views: the image (circles) and the list (000 §2). */
export type SensorViewKind = 'image' | 'list';

/** The pages of one store. */
export const storeUrl = {
  base: storeBase,
  sensors: (storeId: string, view: SensorViewKind = 'image', query?: Query | string) => withQuery(`${storeBase(storeId)}/temp_managements_${view}`, query),
  alertHistory: (storeId: string, query?: Query | string) => withQuery(`${storeBase(storeId)}/warning_histories`, query),
  alertHistoryCsv: (storeId: string, query?: Query | string) => withQuery(`${storeBase(storeId)}/warning_histories.csv`, query),
  /** The temperature graphs, e.g. `{ equipment_id, start_date }` to open one sensor on a day. */
  graphs: (storeId: string, query?: Query | string) => withQuery(`${storeBase(storeId)}/temp_graphs`, query),
  graphsCsv: (storeId: string, query?: Query | string) => withQuery(`${storeBase(storeId)}/temp_graphs.csv`, query),
  reports: (storeId: string) => `${storeBase(storeId)}/reports`,
  diagram: (storeId: string) => `${storeBase(storeId)}/sensor_diagrams/show`,
  diagramEdit: (storeId: string, diagramId?: number) => withQuery(`${storeBase(storeId)}/sensor_diagrams/edit`, { diagram_id: diagramId }),
  sensorSettings: (storeId: string, query?: Query | string) => withQuery(`${storeBase(storeId)}/sensors/show`, query),
  management: (storeId: string) => `${storeBase(storeId)}/master_managements`,
  infoEdit: (storeId: string) => `${storeBase(storeId)}/store_infos/edit`,
  sensorEdit: (storeId: string, equipmentId: number) => `${storeBase(storeId)}/sensors/${equipmentId}/edit`,
  /** The sensor edit form in registration mode, its serial prefilled with a heard BLE address. */
  sensorRegister: (storeId: string, serialNo?: string) => withQuery(`${storeBase(storeId)}/sensors/new/edit`, { serial_no: serialNo }),
  userCreate: (storeId: string) => `${storeBase(storeId)}/users/create`,
  userEdit: (storeId: string, userId: number) => `${storeBase(storeId)}/users/${userId}/edit`,
  /** The alert-stop list of a date range (YYYYMMDD, 001 §2). */
  alertStops: (storeId: string, startDate: string, endDate: string, query?: Query | string) => withQuery(`${storeBase(storeId)}/warning_stop_time/${startDate}/${endDate}`, query),
  /** The alert-stop editor; scheduleId null creates. */
  alertStopEdit: (storeId: string, startDate: string, endDate: string, scheduleId: number | null) => `${storeBase(storeId)}/warning_stop_time/${startDate}/${endDate}/${scheduleId ?? 'null'}/edit`,
  /** The HACCP daily record of a day (`{ date: YYYYMMDD }`), and its monthly PDF (`{ month: YYYYMM }`). */
  haccp: (storeId: string, query?: Query | string) => withQuery(`${storeBase(storeId)}/haccp_records`, query),
  haccpPdf: (storeId: string, query?: Query | string) => withQuery(`${storeBase(storeId)}/haccp_records.pdf`, query),
};

/** The temperature graph of one sensor on a day (YYYYMMDD): the link of alerts, popups and mails. */
export function sensorGraphUrl(storeId: string, equipmentId: number, day: string): string {
  return storeUrl.graphs(storeId, { equipment_id: equipmentId, start_date: day });
}

/**
 * Where a notification's reader acknowledges an alert (webhooks' acknowledge_url): the store's
 * alert history, the alert named; the one place to change when the phone's alert page lands.
 */
export function alertAcknowledgeUrl(storeId: string, alertHistoryId: number): string {
  return storeUrl.alertHistory(storeId, { alert_history_id: alertHistoryId });
}

/** The pages outside a store. */
export const appUrl = {
  dashboard: '/dashboard',
  /** The chain at a glance (decision 292); `?view=wall` for a wall screen. */
  chainOverview: '/chain_overview',
  login: '/login',
  logout: '/logout',
  notFound: '/not_found',
  passwordEdit: '/passwords/edit',
  /** The signed-in user's quiet hours (decision 315). */
  quietHoursEdit: '/quiet_hours/edit',
  passwordForget: '/passwords/forget',
  passwordIssue: '/passwords/issue',
  manuals: '/manuals.html',
  noticeCreate: '/notifications/create',
  userMaster: '/user/master',
  storeCreate: '/stores/store_infos/create',
  companyMaster: '/company/master',
  storegroupMaster: '/storegroup/master',
  usergroupMaster: '/usergroup/master',
  auditLog: '/audit_logs',
  gatewayList: '/gateways',
  webhooks: '/webhooks',
  escalationPolicies: '/escalation_policies',
  userCreate: '/user/master/create',
  userEdit: (userId: number) => `/user/master/${userId}/edit`,
} as const;

/** The system masters' pages (001 §2): list, create and edit of user groups, companies and store groups. */
export const masterUrl = {
  usergroupCreate: '/usergroup/master/create',
  usergroupEdit: (usergroupId: number) => `/usergroup/master/${usergroupId}/edit`,
  companyCreate: '/company/master/create',
  companyEdit: (companyId: string) => `/company/master/${encodeURIComponent(companyId)}/edit`,
  storegroupCreate: '/storegroup/master/create',
  storegroupEdit: (storegroupId: string) => `/storegroup/master/${encodeURIComponent(storegroupId)}/edit`,
} as const;

/** The console's data resources (fetchers and the live-update stream). */
export const resourceUrl = {
  sensorToday: (storeId: string, equipmentId: number) => withQuery('/resources/sensor-today', { store_id: storeId, equipment_id: equipmentId }),
  events: (storeId?: string) => withQuery('/resources/events', { store_id: storeId }),
  notices: (limit: number) => withQuery('/resources/notices', { limit }),
  /** The user groups the viewer may assign: the user group filters' options, loaded when opened. */
  usergroupChoices: '/resources/usergroup-choices',
  diagramImage: (diagramId: number, download = false) => withQuery('/resources/diagram-image', { diagram_id: diagramId, download: download ? 1 : undefined }),
};

/** A console path as a link from outside (mails): the public base URL without its trailing slash. */
export function absoluteUrl(publicBase: string, path: string): string {
  return `${publicBase.replace(/\/+$/, '')}${path}`;
}

/** The report pages of a store (001 §2) and a produced report's file. */
export const reportUrl = {
  list: (storeId: string, tab?: 'reqular') => withQuery(`${storeBase(storeId)}/reports`, { type: tab }),
  create: (storeId: string) => `${storeBase(storeId)}/reports/create`,
  edit: (storeId: string, settingNo: number) => `${storeBase(storeId)}/regular_report/${settingNo}/edit`,
  file: (storeId: string, historyNo: number) => `${storeBase(storeId)}/reports/files/${historyNo}`,
};

/**
 * Why a console delete failed, carried to the reloaded list (page 1) in its URL: a reason code, or
 * 'failed'. Here rather than in master-schemas.ts: the page kit reads it in the browser.
 */
export const DELETE_FAILED_PARAM = 'delete_failed';

/**
 * Where sign-in goes afterwards: a path of this console (from the page that asked for sign-in,
 * e.g. a mail's link), never another site (`//host`, `/\host` or an absolute URL), else the dashboard.
 */
export function safeRedirectTarget(value: string | null | undefined): string {
  if (!value || !value.startsWith('/') || value.startsWith('//') || value.startsWith('/\\')) return appUrl.dashboard;
  if (value === appUrl.login || value.startsWith(`${appUrl.login}?`)) return appUrl.dashboard;
  return value;
}

/** The sign-in page that returns to `redirectTo` (a path with its query) afterwards. */
export function loginUrl(options: { redirectTo?: string | null; expired?: boolean } = {}): string {
  const redirectTo = options.redirectTo && safeRedirectTarget(options.redirectTo) !== appUrl.dashboard ? options.redirectTo : undefined;
  return withQuery(appUrl.login, { expired: options.expired ? 1 : undefined, redirectTo });
}
