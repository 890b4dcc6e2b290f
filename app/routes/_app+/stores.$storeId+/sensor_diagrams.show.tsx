import { type LoaderFunctionArgs, type MetaFunction, json } from '@remix-run/node';
import { DiagramNotRegistered, StoreDiagramView } from '~/components/diagram/diagram-viewer';
import { StorePage } from '~/components/page-kit';
import { PageError } from '~/components/page-error';
import { StaleDataMark } from '~/components/stale-data-mark';
import { liveClientLoader, useLiveData } from '~/components/use-live-updates';
import { getDb } from '~/db/db.server';
import { can } from '~/domain/roles';
import { loadDiagramView } from '~/services/diagrams.server';
import { requireStoreUser } from '~/http/access.server';
import { storeUrl } from '~/domain/urls';

export const meta: MetaFunction = () => [{ title: 'センサ配置図 | On-Reco' }];

// /stores/{store_id}/sensor_diagrams/show: the floor diagram with the sensors' latest
// temperatures (000 §2), refreshed every 60 s and on each change event of the store.
export async function loader({ request, params }: LoaderFunctionArgs) {
  const { viewer, storeId } = await requireStoreUser(request, params);
  const view = await loadDiagramView(getDb(), viewer, storeId);
  return json({ storeId, ...view, canEdit: can(viewer.authority, 'editDiagram') });
}

export const clientLoader = liveClientLoader;

export default function StoreDiagramPage() {
  const {
    data: { storeId, diagram, sensors, stale, canEdit },
    staleSince,
  } = useLiveData<typeof loader>();
  const editHref = canEdit ? storeUrl.diagramEdit(storeId) : null;
  return (
    <StorePage title="センサ配置図">
      <StaleDataMark since={staleSince} />
      {diagram ? <StoreDiagramView diagram={diagram} sensors={sensors} stale={stale} editHref={editHref} /> : <DiagramNotRegistered registerHref={editHref} />}
    </StorePage>
  );
}

export function ErrorBoundary() {
  return <PageError title="センサ配置図" />;
}
