// onreco login | logout | whoami: the session the other commands run with.
import { Command } from 'commander';
import { issueToken, getUser, revokeToken } from '../../app/domain/api/auth';
import { ApiClient } from '../client';
import { CliError } from '../errors';
import { print, recordText } from '../output';
import { currentSession, forgetSession, readStoredSession, serverUrlOf, storeSession } from '../session';
import { type CliContext, examples, withJson } from './common';

export function loginCommand(ctx: CliContext): Command {
  const command = new Command('login')
    .description('sign in and keep the session in your config folder (mode 0600)')
    .option('--server <url>', 'the console, e.g. https://console.example.jp (default: ONRECO_SERVER or the last one)')
    .option('--login-id <id>', 'your login id (asked when left out)')
    .option('--password-stdin', 'read the password from standard input (for scripts)')
    .action(async (options: { server?: string; loginId?: string; passwordStdin?: boolean }) => {
      const stored = await readStoredSession(ctx);
      const server = options.server ?? ctx.env.ONRECO_SERVER ?? stored?.server;
      if (!server) throw new CliError('which console? give --server URL');
      const loginId = options.loginId ?? (await ctx.prompt('Login ID: '));
      const password = options.passwordStdin ? Buffer.from(await ctx.readStdin()).toString('utf8').replace(/\r?\n$/, '') : await ctx.prompt('Password: ', { hidden: true });
      if (!loginId || !password) throw new CliError('a login id and a password are needed');
      const client = new ApiClient(ctx, { server: serverUrlOf(server), token: null });
      const auth = await client.call(issueToken, { grant_type: 'password', username: loginId, password });
      await storeSession(ctx, { server: client.session.server, token: auth.access_token, login_id: loginId, user_id: auth.user_id, authority: auth.authority, expires: auth['.expires'] });
      ctx.stdout(`Signed in to ${client.session.server} as ${loginId} (authority ${auth.authority}); the session expires ${auth['.expires']}.\n`);
    });
  return examples(command, 'onreco login --server https://console.example.jp', 'echo "$PASSWORD" | onreco login --server https://console.example.jp --login-id admin --password-stdin');
}

export function logoutCommand(ctx: CliContext): Command {
  const command = new Command('logout').description('revoke the session\'s token on the server and forget it here').action(async () => {
    const session = await currentSession(ctx);
    if (session.token) {
      try {
        await new ApiClient(ctx, session).call(revokeToken, undefined);
      } catch (error) {
        // A token the server no longer takes is as good as revoked; anything else is worth saying.
        if (!(error instanceof CliError) || !/not signed in/.test(error.message)) throw error;
      }
    }
    await forgetSession(ctx);
    ctx.stdout(`Signed out of ${session.server}.\n`);
  });
  return examples(command, 'onreco logout');
}

export function whoamiCommand(ctx: CliContext): Command {
  const command = withJson(new Command('whoami').description('the signed-in user and server')).action(async (options: { json?: boolean }) => {
    const session = await currentSession(ctx);
    const user = await new ApiClient(ctx, session).call(getUser, {});
    const stored = await readStoredSession(ctx);
    const expires = stored?.token === session.token ? stored.expires : null;
    print(ctx, options, { ...user, server: session.server, expires }, () =>
      recordText([
        ['server', session.server],
        ['login id', user.login_id],
        ['name', user.user_name],
        ['user id', user.user_id],
        ['mail', user.mailaddress1],
        ['expires', expires],
      ]),
    );
  });
  return examples(command, 'onreco whoami', 'ONRECO_SERVER=https://console.example.jp ONRECO_TOKEN=… onreco whoami --json');
}
