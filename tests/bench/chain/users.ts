import { toCompactDate } from '../../../app/domain/japan-time';
import { appUrl, storeUrl, withQuery, type Query } from '../../../app/domain/urls';
import { TEST_PASSWORD } from '../../fixtures/chain';
import { CHAIN_PASSWORD_USERS, type SeededChain } from './seed';

// The chain's staff: signed-in sessions (the administrator and an area manager) that load pages
// one after another with a short pause, all at once. A page is timed as a navigation in the
// console fetches it: its `.data` request (Remix single fetch: the layout's and the page's
// loaders), from the request to the last byte; the dashboard is also timed as a first load (the
// HTML document).

export type PageGroup = 'dashboard' | 'sensor view' | 'day graph' | 'month graph' | 'alert history' | 'first load';

export interface Page {
  name: string;
  group: PageGroup;
  role: keyof typeof CHAIN_PASSWORD_USERS;
  /** The path for a watched store (index into the watched stores), or the same path for every store. */
  path: (watched: number) => string;
}

export interface PageTiming {
  at: number;
  page: string;
  group: PageGroup;
  ms: number;
  status: number;
}

const DASHBOARD_PAGE_SIZE = 20;

/** The pages of the rig, as the issue names them. */
export function chainPages(chain: SeededChain, stores: number, now: Date): Page[] {
  const lastPage = Math.ceil(stores / DASHBOARD_PAGE_SIZE);
  const dashboard = (query: Query) => () => data(withQuery(appUrl.dashboard, query));
  const store = (index: number) => chain.watchedStores[index % chain.watchedStores.length].storeId;
  const today = toCompactDate(now);
  // The calendar month of 15 days ago: the month with the most seeded days (a month is seeded).
  const month = toCompactDate(new Date(now.getTime() - 15 * 86400_000));
  const middleStoreNo = String(Math.ceil(stores / 2)).padStart(8, '0');
  const page = (name: string, group: PageGroup, role: Page['role'], path: Page['path']): Page => ({ name, group, role, path });
  return [
    page('dashboard first page', 'dashboard', 'admin', dashboard({})),
    page('dashboard middle page', 'dashboard', 'admin', dashboard({ page_no: Math.ceil(lastPage / 2) })),
    page('dashboard last page', 'dashboard', 'admin', dashboard({ page_no: lastPage })),
    page('dashboard region filter', 'dashboard', 'admin', dashboard({ region_id: chain.regionId })),
    page('dashboard prefecture filter', 'dashboard', 'admin', dashboard({ prefecture_id: 13 })),
    page('dashboard company filter', 'dashboard', 'admin', dashboard({ company_id: 'CC2' })),
    page('dashboard store group filter', 'dashboard', 'admin', dashboard({ storegroup_id: 'G17' })),
    page('dashboard in-alarm filter', 'dashboard', 'admin', dashboard({ store_status: 3 })),
    page('dashboard store number filter', 'dashboard', 'admin', dashboard({ store_no: middleStoreNo })),
    page('dashboard name search', 'dashboard', 'admin', dashboard({ store_name: `店 ${Math.floor(stores / 10) - 1}` })),
    page('dashboard (area manager)', 'dashboard', 'area', dashboard({})),
    page('dashboard name search (area manager)', 'dashboard', 'area', dashboard({ store_name: '店 1' })),
    page('dashboard first load (HTML)', 'first load', 'admin', () => appUrl.dashboard),
    page('sensor view: image', 'sensor view', 'area', (w) => data(storeUrl.sensors(store(w), 'image'))),
    page('sensor view: list', 'sensor view', 'area', (w) => data(storeUrl.sensors(store(w), 'list'))),
    page('sensor view: list (admin)', 'sensor view', 'admin', (w) => data(storeUrl.sensors(store(w + 1), 'list'))),
    page('graph: today, 20 sensors', 'day graph', 'area', (w) => data(storeUrl.graphs(store(w), { unit: 'day', start_date: today }))),
    page('graph: a month, 20 sensors', 'month graph', 'area', (w) => data(storeUrl.graphs(store(w), { unit: 'month', start_date: month }))),
    page('alert history', 'alert history', 'area', (w) => data(storeUrl.alertHistory(store(w)))),
  ];
}

/** The single-fetch data URL of a page: /path.data?query. */
function data(url: string): string {
  const [path, query] = url.split('?');
  return query ? `${path}.data?${query}` : `${path}.data`;
}

/** Signs in through the login form; the session cookie. */
export async function signIn(base: string, role: Page['role']): Promise<string> {
  const response = await fetch(`${base}/login`, { method: 'POST', body: new URLSearchParams({ username: CHAIN_PASSWORD_USERS[role], password: TEST_PASSWORD }), redirect: 'manual' });
  const cookie = response.headers.get('set-cookie');
  if (response.status !== 302 || !cookie) throw new Error(`sign-in of ${role} failed: ${response.status}`);
  return cookie.split(';')[0];
}

/**
 * `count` users (admins and area managers in turn, each signed in on its own session) loading
 * their pages in a loop, each from its own place in the list and on its own watched store, with
 * `pauseMs` between pages, until stopped. A 429 (the server shedding load) is tried again after
 * its Retry-After, as a person reloads, and so is a cut connection: the time is the user's, from the first request.
 */
export async function startUsers(base: string, pages: Page[], count: number, pauseMs: number) {
  const timings: PageTiming[] = [];
  let sheds = 0;
  let resets = 0;
  let stopped = false;
  const roles = Array.from({ length: count }, (_, user): Page['role'] => (user % 2 === 0 ? 'admin' : 'area'));
  const cookies = await Promise.all(roles.map((role) => signIn(base, role)));
  const load = async (path: string, cookie: string): Promise<number> => {
    for (;;) {
      const response = await fetch(base + path, { headers: { Cookie: cookie }, redirect: 'manual' }).catch(() => null);
      if (!response) {
        // A connection cut (e.g. a kept-alive one the server closed meanwhile): reloaded, and counted.
        resets += 1;
        continue;
      }
      await response.arrayBuffer();
      if (response.status !== 429) return response.status;
      sheds += 1;
      await new Promise((resolve) => setTimeout(resolve, Number(response.headers.get('retry-after') ?? 1) * 1000));
    }
  };
  const loops = roles.map(async (role, user) => {
    const mine = pages.filter((p) => p.role === role);
    for (let turn = user; !stopped; turn += 1) {
      const page = mine[turn % mine.length];
      const t = performance.now();
      const status = await load(page.path(Math.floor(turn / mine.length) + user), cookies[user]);
      timings.push({ at: Date.now(), page: page.name, group: page.group, ms: performance.now() - t, status });
      await new Promise((resolve) => setTimeout(resolve, pauseMs));
    }
  });
  return {
    timings,
    /** Answers 429, and connections cut, that were tried again. */
    retried: () => ({ status_429: sheds, connection_cut: resets }),
    async stop() {
      stopped = true;
      await Promise.all(loops);
    },
  };
}
