import { type ActionFunctionArgs, type LoaderFunctionArgs, json } from '@remix-run/node';
import { getDb } from '~/db/db.server';
import { DiagramListQuerySchema, DiagramUploadSchema } from '~/domain/diagram';
import { listUsableDiagrams } from '~/models/diagrams.server';
import { createDiagrams } from '~/services/diagrams.server';
import { apiError, requireApiRole, requireApiStoreAccess, requireApiUser } from '~/http/access.server';
import { methodNotAllowed, parseOrThrow, searchParamsOf } from '~/http/api.server';
import { readDiagramUpload } from '~/http/diagram-files.server';

// GET /v1/diagram?store_id: [{diagram_id, diagram_name}], the store's own files then the
// chain's templates. POST /v1/diagram (multipart store_id + item_images[]): stores the files,
// typed by content, and answers 201 with the created diagrams.
export async function loader({ request }: LoaderFunctionArgs) {
  const viewer = await requireApiUser(request);
  const { store_id } = parseOrThrow(DiagramListQuerySchema, searchParamsOf(request));
  await requireApiStoreAccess(viewer, store_id);
  const diagrams = await listUsableDiagrams(getDb(), viewer, store_id);
  return json(diagrams.map((diagram) => ({ diagram_id: diagram.diagramId, diagram_name: diagram.diagramName })));
}

export async function action({ request }: ActionFunctionArgs) {
  if (request.method !== 'POST') return methodNotAllowed(['GET', 'POST']);
  const viewer = await requireApiRole(request, 'editDiagram');
  const upload = await readDiagramUpload(request);
  if (!upload.ok) {
    const error = upload.status === 413 ? 'payload_too_large' : 'invalid_request';
    return apiError(upload.status, error, upload.detail, { fields: { 'item_images[]': upload.detail } });
  }
  const { store_id } = parseOrThrow(DiagramUploadSchema, upload.fields);
  await requireApiStoreAccess(viewer, store_id);
  const created = await createDiagrams(getDb(), viewer, store_id, upload.files);
  if (!created) return apiError(404, 'not_found', `Store ${store_id} was not found.`);
  return json(created, { status: 201 });
}
