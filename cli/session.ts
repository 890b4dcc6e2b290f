// The signed-in session: the server and the bearer token, kept in the user's config folder with
// mode 0600 (the token is as good as the password until it expires). ONRECO_SERVER and
// ONRECO_TOKEN override the file, for scripts and CI.
import { chmod, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { CliContext } from './context';
import { CliError } from './errors';

export interface StoredSession {
  server: string;
  token: string;
  login_id: string;
  user_id: number;
  authority: number;
  expires: string;
}

export interface Session {
  server: string;
  token: string | null;
}

export const sessionFileOf = (ctx: CliContext) => path.join(ctx.configDir, 'session.json');

export async function readStoredSession(ctx: CliContext): Promise<StoredSession | null> {
  try {
    return JSON.parse(await readFile(sessionFileOf(ctx), 'utf8')) as StoredSession;
  } catch {
    return null;
  }
}

export async function storeSession(ctx: CliContext, session: StoredSession): Promise<void> {
  await mkdir(ctx.configDir, { recursive: true, mode: 0o700 });
  const file = sessionFileOf(ctx);
  await writeFile(file, `${JSON.stringify(session, null, 2)}\n`, { mode: 0o600 });
  await chmod(file, 0o600); // an existing file keeps its mode through writeFile
}

export async function forgetSession(ctx: CliContext): Promise<void> {
  await rm(sessionFileOf(ctx), { force: true });
}

/** A server URL as given (`--server`, ONRECO_SERVER), without its trailing slash; refused when not http(s). */
export function serverUrlOf(value: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new CliError(`"${value}" is not a server URL (e.g. https://console.example.jp)`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new CliError(`"${value}" is not an http(s) URL`);
  return url.origin + url.pathname.replace(/\/+$/, '');
}

/** The session a command runs with: the environment first, then the file. */
export async function currentSession(ctx: CliContext, options: { server?: string } = {}): Promise<Session> {
  const stored = await readStoredSession(ctx);
  const server = options.server ?? ctx.env.ONRECO_SERVER ?? stored?.server;
  if (!server) throw new CliError('not signed in: run `onreco login --server URL` (or set ONRECO_SERVER and ONRECO_TOKEN)');
  const token = ctx.env.ONRECO_TOKEN ?? (stored && serverUrlOf(server) === stored.server ? stored.token : null);
  return { server: serverUrlOf(server), token };
}
