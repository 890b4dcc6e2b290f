import type { LoaderFunctionArgs } from '@remix-run/node';
import { z } from 'zod';
import { getDb } from '~/db/db.server';
import { requireUser, requireStoreAccess } from '~/http/access.server';
import { parseOrThrow, searchParamsOf } from '~/http/api.server';
import { storeChangeStream } from '~/http/sse.server';
import { storesVisibleTo } from '~/services/live-updates.server';

const EventsQuerySchema = z.object({ store_id: z.string().max(20).optional() });

// Server-sent events for open screens: `?store_id=X` for one store's pages, none for the
// dashboard (any store the viewer may see). Screens revalidate their loaders on each event.
export async function loader({ request }: LoaderFunctionArgs) {
  const viewer = await requireUser(request);
  const { store_id } = parseOrThrow(EventsQuerySchema, searchParamsOf(request));
  if (store_id) {
    await requireStoreAccess(viewer, store_id);
    return storeChangeStream(request, viewer.userId, (storeId) => storeId === store_id);
  }
  return storeChangeStream(request, viewer.userId, storesVisibleTo(getDb(), viewer));
}
