import type { LoaderFunctionArgs } from '@remix-run/node';
import { getDb } from '~/db/db.server';
import { DiagramImageQuerySchema } from '~/domain/diagram';
import { getDiagramFile } from '~/models/diagrams.server';
import { apiError, requireApiUser } from '~/http/access.server';
import { parseOrThrow, searchParamsOf } from '~/http/api.server';
import { diagramFileResponse } from '~/http/diagram-files.server';

// GET /v1/diagram/image?diagram_id: the file with its content type (PDF or image), when it is
// a template or belongs to a store the caller may see; 404 otherwise.
export async function loader({ request }: LoaderFunctionArgs) {
  const viewer = await requireApiUser(request);
  const { diagram_id, download } = parseOrThrow(DiagramImageQuerySchema, searchParamsOf(request));
  const file = await getDiagramFile(getDb(), viewer, diagram_id);
  if (!file) throw apiError(404, 'not_found', `Diagram ${diagram_id} was not found.`);
  return diagramFileResponse(file, { download: download === '1' });
}
