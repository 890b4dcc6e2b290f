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
};

/** The temperature graph of one sensor on a day (YYYYMMDD): the link of alerts, popups and mails. */
export function sensorGraphUrl(storeId: string, equipmentId: number, day: string): string {
  return storeUrl.graphs(storeId, { equipment_id: equipmentId, start_date: day });
}

/** The pages outside a store. */
export const appUrl = {
  dashboard: '/dashboard',
  login: '/login',
  logout: '/logout',
  notFound: '/not_found',
  passwordEdit: '/passwords/edit',
  passwordForget: '/passwords/forget',
  passwordIssue: '/passwords/issue',
  manuals: '/manuals.html',
  noticeCreate: '/notifications/create',
  userMaster: '/user/master',
  storeCreate: '/stores/store_infos/create',
  companyMaster: '/company/master',
  storegroupMaster: '/storegroup/master',
  usergroupMaster: '/usergroup/master',
} as const;

/** The console's data resources (fetchers and the live-update stream). */
export const resourceUrl = {
  sensorToday: (storeId: string, equipmentId: number) => withQuery('/resources/sensor-today', { store_id: storeId, equipment_id: equipmentId }),
  events: (storeId?: string) => withQuery('/resources/events', { store_id: storeId }),
  notices: (limit: number) => withQuery('/resources/notices', { limit }),
  diagramImage: (diagramId: number, download = false) => withQuery('/resources/diagram-image', { diagram_id: diagramId, download: download ? 1 : undefined }),
};

/** A console path as a link from outside (mails): the public base URL without its trailing slash. */
export function absoluteUrl(publicBase: string, path: string): string {
  return `${publicBase.replace(/\/+$/, '')}${path}`;
}
