import { type LoaderFunctionArgs, type MetaFunction, type SerializeFrom, json } from '@remix-run/node';
import { Link, useNavigate } from '@remix-run/react';
import { useEffect } from 'react';
import { DiagramNotRegistered, StoreDiagramView } from '~/components/diagram/diagram-viewer';
import { StorePage } from '~/components/page-kit';
import { PageError } from '~/components/page-error';
import { AlertStopCalendar } from '~/components/sensors-show/alert-stop-calendar';
import { takeRememberedSensorsShowTab } from '~/components/sensors-show/remembered-tab';
import { FurnitureTable, SensorInfoTable, UnregisteredSensors, UsersTable } from '~/components/sensors-show/tables';
import { StaleDataMark } from '~/components/stale-data-mark';
import { liveClientLoader, useLiveData } from '~/components/use-live-updates';
import { getDb } from '~/db/db.server';
import { toCompactDate } from '~/domain/japan-time';
import { can } from '~/domain/roles';
import { SENSORS_SHOW_TABS, parseCalendarMonth, parseSensorsShowTab } from '~/domain/sensor-settings';
import { storeUrl } from '~/domain/urls';
import { requireStoreUser } from '~/http/access.server';
import { scheduledDaysInMonth } from '~/models/alert-schedules.server';
import { listSettingsSensors, listUnregisteredSensors } from '~/models/sensor-settings.server';
import { listStoreUsers } from '~/models/store-management.server';
import { loadDiagramView } from '~/services/diagrams.server';

export const meta: MetaFunction = () => [{ title: '設定 | On-Reco' }];

// /stores/{store_id}/sensors/show (001 §2 "Sensors show page"): five tabs, sensor info the
// default. The tab is in the URL (?tab=), so each is a plain link; the remembered tab (client
// state, set by pages that lead back here) is applied on entry and then cleared. The loader reads
// only the open tab's data. Store settings: administrators, maintenance, case and area managers.
export async function loader({ request, params }: LoaderFunctionArgs) {
  const { viewer, storeId } = await requireStoreUser(request, params, 'storeSettings');
  const db = getDb();
  const search = new URL(request.url).searchParams;
  const tab = parseSensorsShowTab(search.get('tab'));
  const today = toCompactDate(new Date());
  const base = { storeId, explicitTab: search.has('tab'), today };
  switch (tab) {
    case 'sensors': {
      const registers = can(viewer.authority, 'storeManagement');
      const [list, unregistered] = await Promise.all([listSettingsSensors(db, viewer, storeId), registers ? listUnregisteredSensors(db, viewer, storeId) : null]);
      return json({ ...base, tab: 'sensors' as const, sensors: list?.equipments ?? [], unregistered });
    }
    case 'furniture': {
      const list = await listSettingsSensors(db, viewer, storeId);
      return json({ ...base, tab: 'furniture' as const, sensors: list?.equipments ?? [] });
    }
    case 'users':
      return json({ ...base, tab: 'users' as const, users: (await listStoreUsers(db, viewer, storeId)) ?? [] });
    case 'diagram': {
      const { diagram, sensors, stale } = await loadDiagramView(db, viewer, storeId);
      return json({ ...base, tab: 'diagram' as const, diagram, diagramSensors: sensors, stale, canEditDiagram: can(viewer.authority, 'editDiagram') });
    }
    case 'alert-stop': {
      const { year, month } = parseCalendarMonth(search.get('month'), today);
      return json({ ...base, tab: 'alert-stop' as const, calendar: { year, month, days: await scheduledDaysInMonth(db, storeId, year, month) } });
    }
  }
}

export const clientLoader = liveClientLoader;

type LoaderData = SerializeFrom<typeof loader>;

export default function SensorsShowPage() {
  const { data, staleSince } = useLiveData<typeof loader>();
  const navigate = useNavigate();
  const { storeId, tab, explicitTab } = data;
  // The remembered tab: applied once on entry (without a tab in the URL), then cleared.
  useEffect(() => {
    const remembered = takeRememberedSensorsShowTab();
    if (!explicitTab && remembered && remembered !== tab && SENSORS_SHOW_TABS.some((entry) => entry.key === remembered)) {
      navigate(storeUrl.sensorSettings(storeId, { tab: remembered }), { replace: true });
    }
    // Only on entry to the page (moving between tabs keeps it mounted).
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);
  return (
    <StorePage title="設定" wide>
      <StaleDataMark since={staleSince} />
      <nav className="mb-5 flex flex-wrap gap-1 border-b border-slate-200" aria-label="設定のタブ">
        {SENSORS_SHOW_TABS.map((entry) => (
          <Link
            key={entry.key}
            to={storeUrl.sensorSettings(storeId, { tab: entry.key })}
            aria-current={entry.key === tab ? 'page' : undefined}
            data-tab={entry.key}
            className={`-mb-px border-b-2 px-4 py-2.5 text-sm font-medium ${entry.key === tab ? 'border-brand-600 text-brand-700' : 'border-transparent text-slate-500 hover:border-slate-300 hover:text-slate-700'}`}
          >
            {entry.label}
          </Link>
        ))}
      </nav>
      {/* Bottom room so the footer's copyright line never covers the last rows. */}
      <div className="pb-10">
        <TabBody data={data} />
      </div>
    </StorePage>
  );
}

function TabBody({ data }: { data: LoaderData }) {
  const { storeId } = data;
  switch (data.tab) {
    case 'sensors':
      return (
        <>
          <SensorInfoTable storeId={storeId} sensors={data.sensors} />
          {data.unregistered && <UnregisteredSensors storeId={storeId} sensors={data.unregistered} />}
        </>
      );
    case 'furniture':
      return <FurnitureTable sensors={data.sensors} />;
    case 'users':
      return <UsersTable storeId={storeId} users={data.users} />;
    case 'alert-stop':
      return <AlertStopCalendar storeId={storeId} year={data.calendar.year} month={data.calendar.month} today={data.today} scheduledDays={data.calendar.days} />;
    case 'diagram': {
      const editHref = data.canEditDiagram ? storeUrl.diagramEdit(storeId) : null;
      return data.diagram ? <StoreDiagramView diagram={data.diagram} sensors={data.diagramSensors} stale={data.stale} editHref={editHref} /> : <DiagramNotRegistered registerHref={editHref} />;
    }
  }
}

export function ErrorBoundary() {
  return <PageError title="設定" forbiddenHint="設定は管理者・保守担当者・ケース管理者・エリア管理者のみ利用できます。" />;
}
