import { getDiagramImage } from '~/domain/api/diagrams';
import { apiError } from '~/http/access.server';
import { apiLoader, apiNotAllowed } from '~/http/api-route.server';
import { diagramFileResponse } from '~/http/diagram-files.server';
import { getDiagramFile } from '~/models/diagrams.server';

// GET /v1/diagram/image?diagram_id: the file with its content type (PDF or image), when it is
// a template or belongs to a store the caller may see; 404 otherwise.
export const loader = apiLoader(getDiagramImage, async ({ viewer, input, db }) => {
  const file = await getDiagramFile(db, viewer, input.diagram_id);
  if (!file) throw apiError(404, 'not_found', `Diagram ${input.diagram_id} was not found.`);
  return diagramFileResponse(file, { download: input.download === '1' });
});

export const action = apiNotAllowed(getDiagramImage.path);
