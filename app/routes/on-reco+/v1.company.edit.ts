import { json } from '@remix-run/node';
import { deleteCompany as deleteCall, listCompanyMaster, saveCompany as saveCall } from '~/domain/api/masters';
import { apiAction, apiActions, apiLoader, queryOrBody } from '~/http/api-route.server';
import { masterWriteError } from '~/http/failures.server';
import { listCompanyPage } from '~/models/masters.server';
import { deleteCompany, saveCompany } from '~/services/masters.server';

// GET /v1/company/edit: the company master's page (all_count, companies); with company_id, that company (the create form's check).
export const loader = apiLoader(listCompanyMaster, async ({ input, db }) => {
  const page = await listCompanyPage(db, input);
  return { all_count: page.all_count, companies: page.rows };
});

// POST creates or updates (mode, decision 126); DELETE ?company_id deletes one without stores or store groups.
export const action = apiActions(
  apiAction(saveCall, async ({ viewer, input, db, now }) => {
    const result = await saveCompany(db, viewer, input, now);
    if (!result.ok) return masterWriteError(result);
    return json({ ...result.row, created: result.created }, { status: result.created ? 201 : 200 });
  }),
  apiAction(deleteCall, async ({ viewer, input, db, now }) => {
    const result = await deleteCompany(db, viewer, input.company_id, now);
    if (!result.ok) return masterWriteError(result);
    return { deleted: true as const };
  }, { readBody: queryOrBody }),
);
