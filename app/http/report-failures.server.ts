import type { ReportFailure } from '~/services/reports.server';
import { apiError } from './access.server';
import { invalidRequest } from './api.server';

/** The /on-reco answer for a refused report save or delete. */
export function reportError(failure: ReportFailure): Response {
  switch (failure.reason) {
    case 'not_found':
      return apiError(404, 'not_found', failure.description);
    case 'invalid_state':
      return apiError(409, 'invalid_state', failure.description);
    case 'invalid':
      return invalidRequest(failure.fields);
  }
}
