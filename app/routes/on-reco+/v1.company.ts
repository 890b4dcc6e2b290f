import { listCompanies as companiesCall } from '~/domain/api/lookups';
import { apiLoader, apiNotAllowed } from '~/http/api-route.server';
import { listCompanies } from '~/models/lookups.server';

// GET /v1/company: company_id, company_name.
export const loader = apiLoader(companiesCall, ({ viewer, db }) => listCompanies(db, viewer));

export const action = apiNotAllowed(companiesCall.path);
