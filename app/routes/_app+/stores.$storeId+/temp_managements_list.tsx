import { type LoaderFunctionArgs, type MetaFunction, json, redirect } from '@remix-run/node';
import { SensorTable } from '~/components/sensors/sensor-table';
import { SensorViewPage } from '~/components/sensors/sensor-view-page';
import { PageError } from '~/components/page-error';
import { StaleDataMark } from '~/components/stale-data-mark';
import { liveClientLoader, useLiveData } from '~/components/use-live-updates';
import { getDb } from '~/db/db.server';
import { SensorListQuerySchema } from '~/domain/sensor-schemas';
import { sortSensors } from '~/domain/sensor-view';
import { listStoreSensors } from '~/models/sensors.server';
import { staleReadingsNow } from '~/services/silence.server';
import { requireUser } from '~/http/access.server';
import { searchParamsOf } from '~/http/api.server';
import { appUrl } from '~/domain/urls';

export const meta: MetaFunction = () => [{ title: 'センサ一覧 | On-Reco' }];

// /stores/{store_id}/temp_managements_list (000 §2): the sensors as a table, sortable by kind,
// name (location number + name) and alert through links (?sort&order), default lower limit
// ascending. Scoped like the image view: /not_found for a store the viewer may not see.
export async function loader({ request, params }: LoaderFunctionArgs) {
  const viewer = await requireUser(request);
  const query = SensorListQuerySchema.parse(searchParamsOf(request));
  const store = await listStoreSensors(getDb(), viewer, { storeId: params.storeId ?? '', includeHidden: query.include_hidden });
  if (!store) throw redirect(appUrl.notFound);
  const stale = staleReadingsNow(store.sensors.map((sensor) => [sensor.equipment_id, sensor.measured_at]));
  return json({ store: { ...store, sensors: sortSensors(store.sensors, query.sort, query.order) }, stale, sort: { key: query.sort, direction: query.order }, includeHidden: query.include_hidden, language: viewer.language });
}

export const clientLoader = liveClientLoader;

export default function SensorListView() {
  const {
    data: { store, stale, sort, includeHidden, language },
    staleSince,
  } = useLiveData<typeof loader>();
  return (
    <>
      <StaleDataMark since={staleSince} />
      <SensorViewPage store={store} stale={stale} view="list" includeHidden={includeHidden} language={language}>
        {(popup) => <SensorTable sensors={store.sensors} stale={stale} sort={sort} includeHidden={includeHidden} language={language} openId={popup.openId} onOpen={popup.show} />}
      </SensorViewPage>
    </>
  );
}

export function ErrorBoundary() {
  return <PageError title="センサ一覧" />;
}
