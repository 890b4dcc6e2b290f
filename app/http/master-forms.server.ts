import { json, redirect } from '@remix-run/node';
import { DELETE_FAILED_PARAM, IN_USE_REASONS, MASTER_MESSAGES } from '~/domain/master-schemas';
import { withQuery } from '~/domain/urls';
import type { Deleted, MasterWriteFailure } from '~/services/masters.server';

// The console's side of the system masters' writes: a refused save becomes the form's field
// messages and banner (the API's failures, by masterWriteError, are the same refusals); a delete,
// done or refused, reloads the list's page 1 without its search (001 §4), a refusal with its reason.

export interface FormFailure {
  ok: false;
  fields: Record<string, string>;
  message: string;
  values: Record<string, string>;
}

export function formFailure(failure: MasterWriteFailure | { reason: 'invalid'; fields: Record<string, string> }, values: Record<string, string>): Response {
  const answer = (fields: Record<string, string>, message: string, status: number) => json<FormFailure>({ ok: false, fields, message, values }, { status });
  switch (failure.reason) {
    case 'invalid':
      return answer(failure.fields, MASTER_MESSAGES.banner, 400);
    case 'duplicate':
      return answer({ [failure.field]: MASTER_MESSAGES.used }, MASTER_MESSAGES.banner, 400);
    case 'in_use':
      return answer({}, `${MASTER_MESSAGES.saveFailed}${IN_USE_REASONS[failure.why]}`, 409);
    case 'not_found':
      return answer({}, `${MASTER_MESSAGES.saveFailed}${MASTER_MESSAGES.notFound}`, 404);
  }
}

/** The list again, page 1 and no search; with the reason when the delete was refused. */
export function afterDelete(listPath: string, result: Deleted | null): Response {
  if (result?.ok) return redirect(listPath);
  const code = result && result.reason === 'in_use' ? result.why : 'failed';
  return redirect(withQuery(listPath, { [DELETE_FAILED_PARAM]: code }));
}

/** The form's values as text, to fill the form again after a refusal. */
export function formValues(form: FormData): Record<string, string> {
  return Object.fromEntries([...form.entries()].map(([name, value]) => [name, typeof value === 'string' ? value : '']));
}
