import { randomBytes } from 'node:crypto';
import { createCookieSessionStorage, redirect } from '@remix-run/node';
import { getEnv } from '~/env.server';
import type { AuthInfo } from '../services/auth.server';

// The console keeps the bearer token in an httpOnly, SameSite=Lax cookie session (Secure when
// served over https) and calls the same server code as the API.

interface SessionData {
  token: string;
  expires: string;
  userId: number;
}

let storage: ReturnType<typeof createCookieSessionStorage<SessionData>> | undefined;

function sessionStorage() {
  if (!storage) {
    const env = getEnv();
    // Without a configured secret (tests, one-off runs) sessions simply do not outlive the process.
    const secret = env.SESSION_SECRET ?? randomBytes(32).toString('hex');
    storage = createCookieSessionStorage<SessionData>({
      cookie: {
        name: '__onreco_session',
        httpOnly: true,
        sameSite: 'lax',
        path: '/',
        secure: env.ONRECO_PUBLIC_URL.startsWith('https:'),
        secrets: [secret],
        maxAge: env.ONRECO_TOKEN_HOURS * 3600,
      },
    });
  }
  return storage;
}

export async function readSession(request: Request): Promise<Partial<SessionData>> {
  const session = await sessionStorage().getSession(request.headers.get('Cookie'));
  return { token: session.get('token'), expires: session.get('expires'), userId: session.get('userId') };
}

export async function createLoginSession(auth: AuthInfo, redirectTo: string): Promise<Response> {
  const session = await sessionStorage().getSession();
  session.set('token', auth.access_token);
  session.set('expires', new Date(auth['.expires']).toISOString());
  session.set('userId', auth.user_id);
  return redirect(redirectTo, { headers: { 'Set-Cookie': await sessionStorage().commitSession(session) } });
}

export async function clearSessionHeaders(request: Request): Promise<HeadersInit> {
  const session = await sessionStorage().getSession(request.headers.get('Cookie'));
  return { 'Set-Cookie': await sessionStorage().destroySession(session) };
}
