import { DUPLICATE_FIELD_MESSAGES, duplicateMessage } from '~/domain/store-schemas';
import type { StoreWriteFailure } from '~/services/store-gateway.server';
import { IN_USE_REASONS, MASTER_MESSAGES } from '~/domain/master-schemas';
import type { MasterWriteFailure } from '~/services/masters.server';
import { USER_DUPLICATE_MESSAGES } from '~/domain/user-master';
import type { UserWriteFailure } from '~/services/user-master.server';
import type { ImportResult } from '~/services/store-import.server';
import { apiError } from './access.server';
import { invalidRequest } from './api.server';

// The one adapter from the services' typed failures to /on-reco statuses and the JSON error
// shape ({error, error_description, …}): services return failures, routes answer with these.

/** The /on-reco answer for a failed store write (store save, PIN, gateway exchange and removal). */
export function storeWriteError(failure: StoreWriteFailure, storeId: string): Response {
  switch (failure.reason) {
    case 'not_found':
      return apiError(404, 'not_found', failure.description ?? `Store ${storeId} was not found.`);
    case 'forbidden':
      return apiError(403, 'forbidden', failure.description ?? 'This call is not allowed for your authority.', failure.fields ? { fields: failure.fields } : {});
    case 'invalid_state':
    case 'conflict':
      return apiError(409, failure.reason, failure.description);
    case 'duplicate':
      return apiError(400, 'duplicate_value', failure.fields.map(duplicateMessage).join('; '), {
        fields: Object.fromEntries(failure.fields.map((field) => [field, DUPLICATE_FIELD_MESSAGES[field]])),
      });
    case 'invalid':
      return invalidRequest(failure.fields);
  }
}

/** 429 with Retry-After: a limit was reached (sign-in, passcode mails, a busy server). */
export function retryLater(error: string, description: string, retryAfterSeconds: number): Response {
  const response = apiError(429, error, description);
  response.headers.set('Retry-After', String(retryAfterSeconds));
  return response;
}

/** The /on-reco answer for a refused master write (user groups, companies, store groups: 001 §7). */
export function masterWriteError(failure: MasterWriteFailure): Response {
  switch (failure.reason) {
    case 'not_found':
      return apiError(404, 'not_found', failure.description);
    case 'duplicate':
      return apiError(400, 'duplicate_value', duplicateMessage(failure.field), { fields: { [failure.field]: MASTER_MESSAGES.used } });
    case 'in_use':
      return apiError(409, 'in_use', IN_USE_REASONS[failure.why], { reason: failure.why });
    case 'invalid':
      return invalidRequest(failure.fields);
  }
}

/** The /on-reco answer for a failed user write (POST and DELETE /v1/users/edit): duplicates as 001 §8 has them. */
export function userWriteError(failure: UserWriteFailure): Response {
  switch (failure.reason) {
    case 'not_found':
      return apiError(404, 'not_found', failure.description);
    case 'forbidden':
      return apiError(403, 'forbidden', failure.description);
    case 'last_administrator':
      return apiError(409, 'last_administrator', failure.description);
    case 'duplicate':
      return apiError(400, 'duplicate_value', failure.fields.map(duplicateMessage).join('; '), {
        fields: Object.fromEntries(failure.fields.map((field) => [field, USER_DUPLICATE_MESSAGES[field]])),
      });
    case 'invalid':
      return invalidRequest(failure.fields);
  }
}

/** The /on-reco answer for a refused store or sensor import: nothing was written. */
export function importError(failure: Exclude<ImportResult, { ok: true }>): Response {
  switch (failure.reason) {
    case 'forbidden':
      return apiError(403, 'forbidden', 'This call is not allowed for your authority.');
    case 'conflict':
      return apiError(409, 'conflict', 'Another save took one of the imported values meanwhile; nothing was written: run the import again.');
    case 'invalid':
      return invalidRequest(failure.fields);
  }
}
