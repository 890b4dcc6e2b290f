import { type ActionFunctionArgs, json } from '@remix-run/node';
import { getDb } from '~/db/db.server';
import { SetStoreDiagramSchema } from '~/domain/diagram';
import { setStoreDiagram } from '~/services/diagrams.server';
import { apiError, requireApiRole, requireApiStoreAccess } from '~/http/access.server';
import { bodyOf, methodNotAllowed, parseOrThrow } from '~/http/api.server';

// POST /v1/stores/diagram {store_id, diagram_id}: the store's diagram becomes one of its own
// files or a template; diagram_id 0 or null clears it.
export async function action({ request }: ActionFunctionArgs) {
  if (request.method !== 'POST') return methodNotAllowed(['POST']);
  const viewer = await requireApiRole(request, 'editDiagram');
  const input = parseOrThrow(SetStoreDiagramSchema, await bodyOf(request));
  await requireApiStoreAccess(viewer, input.store_id);
  const diagramId = input.diagram_id || null;
  const result = await setStoreDiagram(getDb(), viewer, input.store_id, diagramId);
  if (result === 'store_not_found') return apiError(404, 'not_found', `Store ${input.store_id} was not found.`);
  if (result === 'diagram_not_found') return apiError(404, 'not_found', `Diagram ${diagramId} was not found for store ${input.store_id}.`, { fields: { diagram_id: 'not a diagram of this store or a template' } });
  return json({ store_id: input.store_id, diagram_id: diagramId });
}

export const loader = () => methodNotAllowed(['POST']);
