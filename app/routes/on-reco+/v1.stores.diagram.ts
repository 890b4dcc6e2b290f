import { setStoreDiagram as storeDiagramCall } from '~/domain/api/diagrams';
import { apiError } from '~/http/access.server';
import { apiAction, apiNotAllowed } from '~/http/api-route.server';
import { setStoreDiagram } from '~/services/diagrams.server';

// POST /v1/stores/diagram {store_id, diagram_id}: the store's diagram becomes one of its own
// files or a template; diagram_id 0 or null clears it.
export const action = apiAction(storeDiagramCall, async ({ viewer, input, db }) => {
  const diagramId = input.diagram_id || null;
  const result = await setStoreDiagram(db, viewer, input.store_id, diagramId);
  if (result === 'store_not_found') return apiError(404, 'not_found', `Store ${input.store_id} was not found.`);
  if (result === 'diagram_not_found') return apiError(404, 'not_found', `Diagram ${diagramId} was not found for store ${input.store_id}.`, { fields: { diagram_id: 'not a diagram of this store or a template' } });
  return { store_id: input.store_id, diagram_id: diagramId };
});

export const loader = apiNotAllowed(storeDiagramCall.path);
