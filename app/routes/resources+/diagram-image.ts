import type { LoaderFunctionArgs } from '@remix-run/node';
import { getDb } from '~/db/db.server';
import { DiagramImageQuerySchema } from '~/domain/diagram';
import { getDiagramFile } from '~/models/diagrams.server';
import { requireUser } from '~/http/access.server';
import { parseOrThrow, searchParamsOf } from '~/http/api.server';
import { diagramFileResponse } from '~/http/diagram-files.server';

// The diagram file for the console's <img> and PDF rendering (and download=1 for the template
// download): the same model call and headers as GET /v1/diagram/image, on the console session.
export async function loader({ request }: LoaderFunctionArgs) {
  const viewer = await requireUser(request);
  const { diagram_id, download } = parseOrThrow(DiagramImageQuerySchema, searchParamsOf(request));
  const file = await getDiagramFile(getDb(), viewer, diagram_id);
  if (!file) throw new Response('Not Found', { status: 404 });
  return diagramFileResponse(file, { download: download === '1' });
}
