import { API_CALLS, type ApiCall } from '../../app/domain/api';

// Every 2xx answer an API test gets from an /on-reco route is checked against the call's
// declared answer (app/domain/api/): a route cannot answer what its declaration does not say.

/** The declared call a request is for, by method and path (HEAD is the GET's). */
export function declaredCallOf(request: Request): ApiCall | undefined {
  const path = new URL(request.url).pathname;
  const method = request.method === 'HEAD' ? 'GET' : request.method;
  return API_CALLS.find((call) => call.path === path && call.method === method);
}

/** Why the answer is not the declared one, or null when it is (failures and undeclared paths are not checked). */
export async function undeclaredAnswer(request: Request, response: Response): Promise<string | null> {
  if (response.status < 200 || response.status >= 300) return null;
  const call = declaredCallOf(request);
  if (!call) return null;
  const where = `${call.method} ${call.path} (${call.id}) answered ${response.status}`;
  if (!call.answer.statuses.includes(response.status)) return `${where}, not one of the declared ${call.answer.statuses.join(', ')}`;
  const type = response.headers.get('Content-Type') ?? '';
  if ('file' in call.answer) {
    return call.answer.file.some((declared) => type.startsWith(declared)) ? null : `${where} with Content-Type ${type}, not one of ${call.answer.file.join(', ')}`;
  }
  if (!type.startsWith('application/json')) return `${where} with Content-Type ${type}, not JSON`;
  const parsed = call.answer.json.safeParse(await response.clone().json());
  if (parsed.success) return null;
  const issues = parsed.error.issues.slice(0, 5).map((issue) => `${issue.path.join('.') || '(root)'}: ${issue.message}`);
  return `${where} outside its declared answer: ${issues.join('; ')}`;
}

/** Throws when a 2xx answer of a declared call is not what its declaration says. */
export async function expectDeclaredAnswer(request: Request, response: Response): Promise<void> {
  const problem = await undeclaredAnswer(request, response);
  if (problem) throw new Error(problem);
}
