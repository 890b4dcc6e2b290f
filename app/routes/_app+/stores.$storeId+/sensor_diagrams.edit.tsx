import { type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction, json, redirect } from '@remix-run/node';
import { useActionData, useLoaderData } from '@remix-run/react';
import { DiagramSettings } from '~/components/diagram/diagram-settings';
import { DiagramDropZone } from '~/components/diagram/diagram-upload';
import { PlacementEditor } from '~/components/diagram/placement-editor';
import { FormCloseButton } from '~/components/form-close';
import { StorePageHeader } from '~/components/page-kit';
import { PageError } from '~/components/page-error';
import { getDb } from '~/db/db.server';
import { DIAGRAM_MESSAGES, DiagramEditQuerySchema, PositionsFieldSchema, ReflectDiagramSchema } from '~/domain/diagram';
import { getStoreDiagram, getUsableDiagram, listDiagramSensors, listUsableDiagrams } from '~/models/diagrams.server';
import { createDiagrams, placeSensorsOnDiagram, setStoreDiagram } from '~/services/diagrams.server';
import { requireStoreUser } from '~/http/access.server';
import { fieldErrors, searchParamsOf } from '~/http/api.server';
import { closeIfUnread, readDiagramUpload, uploadFailureMessage } from '~/http/diagram-files.server';
import { appUrl, storeUrl } from '~/domain/urls';

export const meta: MetaFunction = () => [{ title: 'センサ配置図の編集 | On-Reco' }];


// /stores/{store_id}/sensor_diagrams/edit[?diagram_id]: the placement editor (000 §2), for
// non-store users. Without a diagram (none set, or diagram_id=0) it is the upload screen.
export async function loader({ request, params }: LoaderFunctionArgs) {
  const { viewer, storeId } = await requireStoreUser(request, params, 'editDiagram');
  const query = DiagramEditQuerySchema.safeParse(searchParamsOf(request));
  if (!query.success) throw json({ fields: fieldErrors(query.error) }, { status: 400 });
  const requested = query.data.diagram_id;
  const db = getDb();
  const [storeDiagram, diagrams, sensors, chosen] = await Promise.all([
    getStoreDiagram(db, viewer, storeId),
    listUsableDiagrams(db, viewer, storeId),
    listDiagramSensors(db, viewer, storeId),
    requested ? getUsableDiagram(db, viewer, storeId, requested) : null,
  ]);
  if (requested && !chosen) throw redirect(appUrl.notFound);
  const diagram = requested === undefined ? storeDiagram : chosen;
  return json({
    storeId,
    diagram,
    diagrams,
    sensors: sensors.map(({ equipmentId, equipmentName, locationNo, positionX, positionY }) => ({ equipmentId, equipmentName, locationNo, positionX, positionY })),
  });
}

type Origin = 'screen' | 'modal';
type ActionResult = { intent: 'upload' | 'setDiagram' | 'positions'; ok: boolean; message?: string; origin?: Origin };

const failed = (result: Omit<ActionResult, 'ok'>, status: number) => json<ActionResult>({ ...result, ok: false }, { status });

export async function action({ request, params }: ActionFunctionArgs) {
  const { viewer, storeId } = await requireStoreUser(request, params, 'editDiagram');
  const db = getDb();

  // The upload screen and the modal's upload tab: the file becomes the store's diagram.
  if ((request.headers.get('Content-Type') ?? '').startsWith('multipart/form-data')) {
    const upload = await readDiagramUpload(request);
    const origin: Origin = upload.fields.origin === 'modal' ? 'modal' : 'screen';
    if (!upload.ok) return closeIfUnread(upload, failed({ intent: 'upload', message: uploadFailureMessage(upload), origin }, upload.status));
    const created = await createDiagrams(db, viewer, storeId, upload.files, { setAsStoreDiagram: true });
    if (!created) throw redirect(appUrl.notFound);
    return redirect(storeUrl.diagramEdit(storeId, created[created.length - 1].diagram_id));
  }

  const form = Object.fromEntries(await request.formData());
  if (form.intent === 'setDiagram') {
    const parsed = ReflectDiagramSchema.safeParse(form);
    const result = parsed.success ? await setStoreDiagram(db, viewer, storeId, parsed.data.diagram_id) : 'diagram_not_found';
    if (!parsed.success || result !== 'ok') return failed({ intent: 'setDiagram', message: DIAGRAM_MESSAGES.reflectFailed, origin: 'modal' }, parsed.success ? 404 : 400);
    return redirect(storeUrl.diagramEdit(storeId, parsed.data.diagram_id));
  }

  if (form.intent === 'positions') {
    const positions = PositionsFieldSchema.safeParse(form.positions);
    const shown = ReflectDiagramSchema.safeParse(form);
    if (!positions.success || !shown.success) return failed({ intent: 'positions' }, 400);
    // Sensors placed on a diagram make it the store's diagram, in the same transaction.
    const saved = await placeSensorsOnDiagram(db, viewer, storeId, shown.data.diagram_id, positions.data);
    if (!saved.ok) return failed({ intent: 'positions', message: saved.reason === 'too_many' ? DIAGRAM_MESSAGES.limitReached : undefined }, saved.reason === 'too_many' ? 400 : 404);
    return json<ActionResult>({ intent: 'positions', ok: true });
  }
  return failed({ intent: 'positions' }, 400);
}

export default function DiagramEditPage() {
  const { storeId, diagram, diagrams, sensors } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const errorFrom = (origin: Origin) => (result && !result.ok && result.intent !== 'positions' && result.origin === origin ? (result.message ?? DIAGRAM_MESSAGES.uploadFailed) : null);
  const settings = (
    <DiagramSettings key={diagram?.diagramId ?? 'none'} diagrams={diagrams} currentDiagramId={diagram?.diagramId ?? null} error={errorFrom('modal')} initiallyOpen={errorFrom('modal') !== null} />
  );
  return (
    <main className="mx-auto w-full max-w-7xl flex-1 px-4 py-6 sm:px-6">
      <StorePageHeader title="センサ配置図の編集">
        {!diagram && (
          <div className="flex items-center gap-1">
            {settings}
            <FormCloseButton to={storeUrl.management(storeId)} />
          </div>
        )}
      </StorePageHeader>
      {diagram ? (
        <PlacementEditor
          key={diagram.diagramId}
          diagram={diagram}
          sensors={sensors}
          actions={
            <div className="flex items-center gap-1">
              {settings}
              <FormCloseButton to={storeUrl.sensorSettings(storeId, { tab: 'diagram' })} />
            </div>
          }
        />
      ) : (
        <DiagramDropZone error={errorFrom('screen')} />
      )}
    </main>
  );
}

export function ErrorBoundary() {
  return <PageError title="センサ配置図の編集" />;
}
