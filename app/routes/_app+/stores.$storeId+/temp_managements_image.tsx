import { type LoaderFunctionArgs, type MetaFunction, json, redirect } from '@remix-run/node';
import { SensorCircle } from '~/components/sensors/sensor-circle';
import { SensorViewPage } from '~/components/sensors/sensor-view-page';
import { PageError } from '~/components/page-error';
import { StaleDataMark } from '~/components/stale-data-mark';
import { liveClientLoader, useLiveData } from '~/components/use-live-updates';
import { getDb } from '~/db/db.server';
import { SensorViewQuerySchema } from '~/domain/sensor-schemas';
import { listStoreSensors } from '~/models/sensors.server';
import { staleReadingsNow } from '~/services/silence.server';
import { requireUser } from '~/http/access.server';
import { searchParamsOf } from '~/http/api.server';
import { appUrl } from '~/domain/urls';

export const meta: MetaFunction = () => [{ title: 'センサ一覧 | On-Reco' }];

// /stores/{store_id}/temp_managements_image (000 §2): each sensor a circle, lower limit
// ascending. One query; the popup's day is fetched on open. A store the viewer may not see
// (or that does not exist) goes to /not_found: the query itself is scoped to the viewer.
export async function loader({ request, params }: LoaderFunctionArgs) {
  const viewer = await requireUser(request);
  const { include_hidden } = SensorViewQuerySchema.parse(searchParamsOf(request));
  const store = await listStoreSensors(getDb(), viewer, { storeId: params.storeId ?? '', includeHidden: include_hidden });
  if (!store) throw redirect(appUrl.notFound);
  return json({ store, stale: staleReadingsNow(store.sensors.map((sensor) => [sensor.equipment_id, sensor.measured_at])), includeHidden: include_hidden, language: viewer.language });
}

export const clientLoader = liveClientLoader;

export default function SensorImageView() {
  const {
    data: { store, stale, includeHidden, language },
    staleSince,
  } = useLiveData<typeof loader>();
  return (
    <>
      <StaleDataMark since={staleSince} />
      <SensorViewPage store={store} stale={stale} view="image" includeHidden={includeHidden} language={language}>
        {(popup) => (
          <ul className="grid grid-cols-[repeat(auto-fill,minmax(8.5rem,1fr))] gap-x-3 gap-y-5 sm:grid-cols-[repeat(auto-fill,minmax(10rem,1fr))]" aria-label="センサ">
            {store.sensors.map((sensor) => (
              <SensorCircle key={sensor.equipment_id} sensor={sensor} staleAge={stale[sensor.equipment_id]} selected={popup.openId === sensor.equipment_id} onOpen={(anchor) => popup.show(sensor.equipment_id, anchor)} />
            ))}
          </ul>
        )}
      </SensorViewPage>
    </>
  );
}

export function ErrorBoundary() {
  return <PageError title="センサ一覧" />;
}
