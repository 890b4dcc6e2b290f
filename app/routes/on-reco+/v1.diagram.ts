import { listDiagrams, uploadDiagrams } from '~/domain/api/diagrams';
import { apiError } from '~/http/access.server';
import { apiAction, apiLoader } from '~/http/api-route.server';
import { closeIfUnread, readDiagramUpload } from '~/http/diagram-files.server';
import { listUsableDiagrams, type UploadedDiagram } from '~/models/diagrams.server';
import { createDiagrams } from '~/services/diagrams.server';

// GET /v1/diagram?store_id: [{diagram_id, diagram_name}], the store's own files then the
// chain's templates. POST /v1/diagram (multipart store_id + item_images[]): stores the files,
// typed by content, and answers 201 with the created diagrams.
export const loader = apiLoader(listDiagrams, async ({ viewer, input, db }) => {
  const diagrams = await listUsableDiagrams(db, viewer, input.store_id);
  return diagrams.map((diagram) => ({ diagram_id: diagram.diagramId, diagram_name: diagram.diagramName }));
});

/** The multipart body: its text fields to parse, its files typed by content; a bad upload answers at once. */
async function readUpload(request: Request): Promise<Response | { fields: Record<string, string>; attachments: UploadedDiagram[] }> {
  const upload = await readDiagramUpload(request);
  if (upload.ok) return { fields: upload.fields, attachments: upload.files };
  const error = upload.status === 413 ? 'payload_too_large' : 'invalid_request';
  return closeIfUnread(upload, apiError(upload.status, error, upload.detail, { fields: { 'item_images[]': upload.detail } }));
}

export const action = apiAction(
  uploadDiagrams,
  async ({ viewer, input, attachments, db }) => {
    const created = await createDiagrams(db, viewer, input.store_id, attachments);
    if (!created) return apiError(404, 'not_found', `Store ${input.store_id} was not found.`);
    return created;
  },
  { readBody: readUpload },
);
