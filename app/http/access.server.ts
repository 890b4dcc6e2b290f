import { redirect } from '@remix-run/node';
import { Authenticator } from 'remix-auth';
import { FormStrategy } from 'remix-auth-form';
import { type Db, getDb } from '~/db/db.server';
import { can, type Permission } from '~/domain/roles';
import { loginUrl } from '~/domain/urls';
import { lookUpAccessToken } from '~/models/access-tokens.server';
import { canViewStore } from '~/models/stores.server';
import { getViewerById, type Viewer } from '~/models/users.server';
import { type AuthInfo, logIn } from '~/services/auth.server';
import type { ClientOrigin } from '~/models/request-limits.server';
import { noteRequestGateway, noteRequestUser, rememberedForRequest } from './server/request-context.server';
import { jsonAnswer } from './json-answer.server';
import { clearSessionHeaders, readSession } from './session.server';
import { storeOfGatewayTokenCached } from '~/services/gateway-tokens.server';

// Auth helpers throw (a redirect, a 401/403/404) so that routes never branch on auth.

function viewerOfToken(token: string | undefined): Promise<Viewer | 'expired' | null> {
  if (!token) return Promise.resolve(null);
  return rememberedForRequest(`viewer:${token}`, () => lookUpViewer(token, new Date()));
}

async function lookUpViewer(token: string, now: Date): Promise<Viewer | 'expired' | null> {
  const db = getDb();
  const found = await lookUpAccessToken(db, token, now);
  if (found.state === 'expired') return 'expired';
  if (found.state !== 'valid') return null;
  const user = await getViewerById(db, found.userId);
  if (!user || user.validFlg !== 1) return null;
  const { passwordHash: _hash, validFlg: _valid, ...viewer } = user;
  noteRequestUser(viewer.userId);
  return viewer;
}

/** The console's form login (remix-auth + remix-auth-form), on the same logIn as the API. */
export function consoleAuthenticator(db: Db, origin: ClientOrigin): Authenticator<AuthInfo> {
  const authenticator = new Authenticator<AuthInfo>();
  authenticator.use(
    new FormStrategy(async ({ form }) => logIn(db, String(form.get('username') ?? '').trim(), String(form.get('password') ?? ''), origin)),
    'form',
  );
  return authenticator;
}

/**
 * The page to come back to after sign-in (a mail's link followed while signed out): the path
 * and query of a GET, without Remix's `_data` (a client-side navigation asks with it). A form
 * post has no page to come back to.
 */
function returnPathOf(request: Request): string | null {
  const url = new URL(request.url);
  // Resource routes (images, event streams) are not pages one comes back to.
  if (request.method !== 'GET' || url.pathname.startsWith('/resources/')) return null;
  url.searchParams.delete('_data');
  return `${url.pathname}${url.search}`;
}

/** The signed-in console user; otherwise a redirect to /login (with the expiry notice when the token ran out). */
export async function requireUser(request: Request): Promise<Viewer> {
  const { token } = await readSession(request);
  const viewer = await viewerOfToken(token);
  if (viewer && viewer !== 'expired') return viewer;
  throw redirect(loginUrl({ expired: viewer === 'expired', redirectTo: returnPathOf(request) }), { headers: token ? await clearSessionHeaders(request) : undefined });
}

/** The signed-in user when they hold the permission; otherwise 403. */
export async function requireRole(request: Request, permission: Permission): Promise<Viewer> {
  const viewer = await requireUser(request);
  if (!can(viewer.authority, permission)) throw new Response('Forbidden', { status: 403 });
  return viewer;
}

/** For store pages: a store the viewer may not see (or that does not exist) goes to /not_found. */
export async function requireStoreAccess(viewer: Viewer, storeId: string): Promise<void> {
  if (!(await canViewStore(getDb(), viewer, storeId))) throw redirect('/not_found');
}

/**
 * The first lines of every store page's loader and action: the signed-in user (with the
 * permission, when one is named: 403 otherwise) and the store of the URL, which they may see
 * (otherwise /not_found).
 */
export async function requireStoreUser(request: Request, params: { storeId?: string }, permission?: Permission): Promise<{ viewer: Viewer; storeId: string }> {
  const viewer = permission ? await requireRole(request, permission) : await requireUser(request);
  const storeId = params.storeId ?? '';
  await requireStoreAccess(viewer, storeId);
  return { viewer, storeId };
}

export function apiError(status: number, error: string, description: string, extra: Record<string, unknown> = {}): Response {
  return jsonAnswer({ error, error_description: description, ...extra }, { status });
}

/** The bearer token of a request's Authorization header, or undefined. */
export function bearerTokenOf(request: Request): string | undefined {
  return /^Bearer\s+(\S+)$/i.exec(request.headers.get('Authorization') ?? '')?.[1];
}

/** The user of the bearer token on an /on-reco/v1 call; otherwise 401 JSON. */
export async function requireApiUser(request: Request): Promise<Viewer> {
  const viewer = await viewerOfToken(bearerTokenOf(request));
  if (viewer === 'expired') throw apiError(401, 'invalid_token', 'The access token has expired.');
  if (!viewer) throw apiError(401, 'invalid_token', 'A valid bearer token is required.');
  return viewer;
}

export async function requireApiRole(request: Request, permission: Permission): Promise<Viewer> {
  const viewer = await requireApiUser(request);
  if (!can(viewer.authority, permission)) throw apiError(403, 'forbidden', 'This call is not allowed for your authority.');
  return viewer;
}

/** For store-scoped API calls: 404 when the store does not exist or is not the viewer's, so nothing leaks. */
export async function requireApiStoreAccess(viewer: Viewer, storeId: string): Promise<void> {
  if (!(await canViewStore(getDb(), viewer, storeId))) throw apiError(404, 'not_found', `Store ${storeId} was not found.`);
}

/** The store of the gateway token on a gateway call; user tokens and revoked ones get 401. */
export async function requireGatewayStore(request: Request): Promise<string> {
  const token = bearerTokenOf(request);
  const storeId = token ? await storeOfGatewayTokenCached(getDb(), token) : null;
  if (!storeId) throw apiError(401, 'invalid_token', 'A valid gateway token is required.');
  noteRequestGateway(storeId);
  return storeId;
}
