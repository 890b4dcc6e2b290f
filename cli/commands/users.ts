// onreco users list | show | create | update | disable, and usergroups list: the user master
// through the API (/v1/users/edit), so case and area managers see and change only what the console
// lets them. Disabling is an update with valid_flg 0 (the user's sessions end; history stays).
import { Command, Option } from 'commander';
import { listUsergroups } from '../../app/domain/api/masters';
import { listUsers, saveUser } from '../../app/domain/api/users';
import { ALERT_FILTER, ALERT_FILTER_CLI_NAMES, type AlertFilterCliName, alertFilterCliText } from '../../app/domain/alert-filter';
import { USER_PAGE_COUNT_MAX } from '../../app/domain/user-master';
import type { ApiClient, WireAnswer, WireInput } from '../client';
import { CliError, UsageError } from '../errors';
import { print, recordText, tableText, withProgress } from '../output';
import { type CliContext, clientOf, examples, positiveInteger, readJsonFile, withJson } from './common';

type UserRow = WireAnswer<typeof listUsers>['users'][number];
type UserFilters = Omit<WireInput<typeof listUsers>, 'page_no' | 'page_count'>;
type UserSave = WireInput<typeof saveUser>;


async function allUsers(client: ApiClient, filters: UserFilters, onPage: (done: number, all: number) => void): Promise<WireAnswer<typeof listUsers>> {
  const users: UserRow[] = [];
  for (let pageNo = 1; ; pageNo++) {
    const page = await client.call(listUsers, { ...filters, page_no: pageNo, page_count: USER_PAGE_COUNT_MAX });
    users.push(...page.users);
    onPage(users.length, page.all_count);
    if (users.length >= page.all_count || page.users.length === 0) return { all_count: page.all_count, users };
  }
}

async function userOf(client: ApiClient, userId: number): Promise<UserRow> {
  const found = (await client.call(listUsers, { user_id: userId, page_no: 1, page_count: 1 })).users.find((user) => user.user_id === userId);
  if (!found) throw new CliError(`user ${userId} does not exist or is not one you may see`);
  return found;
}

function listCommand(ctx: CliContext): Command {
  const command = withJson(
    new Command('list')
      .description('the users you may see (every page), by user id')
      .option('--name <text>', 'part of the user name')
      .option('--mail <text>', 'part of a mail address')
      .option('--usergroup <id>', 'members of this user group', positiveInteger('--usergroup'))
      .addOption(new Option('--state <state>', 'active or disabled users only').choices(['active', 'disabled'])),
  ).action(async (options) => {
    const client = await clientOf(ctx);
    const filters: UserFilters = { user_name: options.name, mailaddress: options.mail, usergroup_id: options.usergroup, valid_flg: options.state === undefined ? undefined : options.state === 'active' ? 1 : 0 };
    const answer = await withProgress(ctx, 'Fetching users', (report) => allUsers(client, filters, (done, all) => report(`${done}/${all}`)));
    print(ctx, options, answer, () =>
      tableText(answer.users, [
        { header: 'ID', value: (user) => user.user_id, align: 'right' },
        { header: 'LOGIN ID', value: (user) => user.login_id },
        { header: 'NAME', value: (user) => user.user_name },
        { header: 'COMPANY', value: (user) => user.company_name },
        { header: 'MAIL', value: (user) => user.mailaddress1 ?? user.mailaddress2 ?? user.mailaddress3 },
        { header: 'GROUPS', value: (user) => user.usergroups.map((group) => group.usergroup_name).join(', ') },
        { header: 'STATE', value: (user) => (user.valid_flg === 1 ? 'active' : 'disabled') },
      ]) + `${answer.users.length} users\n`,
    );
  });
  return examples(command, 'onreco users list', 'onreco users list --usergroup 3 --state active --json');
}

function showCommand(ctx: CliContext): Command {
  const command = withJson(new Command('show').description('one user').argument('<user_id>', 'the user id', positiveInteger('user_id'))).action(async (userId: number, options) => {
    const user = await userOf(await clientOf(ctx), userId);
    print(ctx, options, user, () =>
      recordText([
        ['user id', user.user_id],
        ['login id', user.login_id],
        ['name', user.user_name],
        ['company', user.company_id === null ? null : `${user.company_name} (${user.company_id})`],
        ['tel', user.tel_no],
        ['mail', [user.mailaddress1, user.mailaddress2, user.mailaddress3].filter(Boolean).join(', ')],
        ['language', user.language],
        ['user groups', user.usergroups.map((group) => `${group.usergroup_name} (${group.usergroup_id})`).join(', ')],
        ['state', user.valid_flg === 1 ? 'active' : 'disabled'],
        ['notices', user.notice_flg === 1 ? 'yes' : 'no'],
        ['alert mails', alertFilterCliText(user.alert_filter)],
      ]),
    );
  });
  return examples(command, 'onreco users show 12', 'onreco users show 12 --json');
}

const collectGroups = (value: string, previous: number[] = []) => [...previous, ...value.split(',').map((id) => positiveInteger('--usergroup')(id.trim()))];
const mailsOf = (value: string, previous: string[] = []) => [...previous, ...value.split(',').map((mail) => mail.trim())];

function withUserFields(command: Command): Command {
  return command
    .option('--file <user.json>', 'the user as JSON (001 §7 fields; - for stdin); flags override it')
    .option('--login-id <id>', 'login id (letters and digits; cannot change later)')
    .option('--name <name>', 'user name')
    .option('--company <id>', 'company id')
    .option('--tel <digits>', 'phone number, digits only')
    .option('--mail <addresses>', 'up to three mail addresses, comma separated (repeatable)', mailsOf)
    .addOption(new Option('--language <language>', 'mail language').choices(['JP', 'US']))
    .option('--usergroup <ids>', 'user group ids, comma separated (repeatable)', collectGroups)
    .addOption(new Option('--notices <yes|no>', 'receive notices').choices(['yes', 'no']))
    .addOption(new Option('--alert-mails <which>', 'alert mails: all, alerts (alerts only) or none').choices(Object.keys(ALERT_FILTER_CLI_NAMES)));
}

async function userEntityOf(ctx: CliContext, options: Record<string, unknown>, base: Partial<UserSave>): Promise<Partial<UserSave>> {
  const file = typeof options.file === 'string' ? ((await readJsonFile(ctx, options.file)) as Partial<UserSave>) : {};
  const mails = options.mail as string[] | undefined;
  if (mails && mails.length > 3) throw new UsageError('--mail takes at most three addresses');
  const flags: Partial<UserSave> = {
    login_id: options.loginId as string | undefined,
    user_name: options.name as string | undefined,
    company_id: options.company as string | undefined,
    tel_no: options.tel as string | undefined,
    mailaddress1: mails ? (mails[0] ?? null) : undefined,
    mailaddress2: mails ? (mails[1] ?? null) : undefined,
    mailaddress3: mails ? (mails[2] ?? null) : undefined,
    language: options.language as 'JP' | 'US' | undefined,
    usergroup: options.usergroup as number[] | undefined,
    notice_flg: options.notices === undefined ? undefined : options.notices === 'yes' ? 1 : 0,
    alert_filter: options.alertMails === undefined ? undefined : ALERT_FILTER_CLI_NAMES[options.alertMails as AlertFilterCliName],
  };
  const entity: Partial<UserSave> = { ...base, ...file };
  for (const [key, value] of Object.entries(flags)) if (value !== undefined) (entity as Record<string, unknown>)[key] = value;
  return entity;
}

function createCommand(ctx: CliContext): Command {
  const command = withJson(withUserFields(new Command('create').description('create a user (a welcome mail with a temporary password is sent)'))).action(async (options) => {
    const entity = await userEntityOf(ctx, options, { language: 'JP', valid_flg: 1, notice_flg: 1, alert_filter: ALERT_FILTER.occurrenceAndRecovery });
    delete entity.user_id;
    const saved = await (await clientOf(ctx)).call(saveUser, entity as UserSave);
    print(ctx, options, saved, () => `Created user ${saved.user_id} (${saved.login_id}).\n`);
  });
  return examples(
    command,
    'onreco users create --login-id tanaka01 --name "田中 一郎" --company C001 --mail tanaka@example.jp --usergroup 3',
    'onreco users create --file user.json',
  );
}

const entityOfRow = (user: UserRow): UserSave => ({
  user_id: user.user_id,
  login_id: user.login_id,
  user_name: user.user_name,
  company_id: user.company_id ?? undefined,
  tel_no: user.tel_no,
  mailaddress1: user.mailaddress1,
  mailaddress2: user.mailaddress2,
  mailaddress3: user.mailaddress3,
  language: user.language,
  valid_flg: user.valid_flg,
  notice_flg: user.notice_flg,
  alert_filter: user.alert_filter,
  usergroup: user.usergroups.map((group) => group.usergroup_id),
});

function updateCommand(ctx: CliContext): Command {
  const command = withJson(
    withUserFields(new Command('update').description('change a user: the flags given, the rest as it is').argument('<user_id>', 'the user id', positiveInteger('user_id'))).option(
      '--enable',
      'make a disabled user active again',
    ),
  ).action(async (userId: number, options) => {
    const client = await clientOf(ctx);
    const current = await userOf(client, userId);
    const entity = await userEntityOf(ctx, options, entityOfRow(current));
    if (entity.login_id !== current.login_id) throw new UsageError(`the login id cannot change (${current.login_id})`);
    entity.user_id = userId;
    if (options.enable) entity.valid_flg = 1;
    const saved = await client.call(saveUser, entity as UserSave);
    print(ctx, options, saved, () => `Updated user ${saved.user_id} (${saved.login_id}).\n`);
  });
  return examples(command, 'onreco users update 12 --tel 0312345678', 'onreco users update 12 --usergroup 3,5 --alert-mails alerts', 'onreco users update 12 --enable');
}

function disableCommand(ctx: CliContext): Command {
  const command = withJson(
    new Command('disable').description('disable a user: they can no longer sign in, their sessions end, their history stays').argument('<user_id>', 'the user id', positiveInteger('user_id')),
  ).action(async (userId: number, options) => {
    const client = await clientOf(ctx);
    const current = await userOf(client, userId);
    const saved = await client.call(saveUser, { ...entityOfRow(current), valid_flg: 0 });
    print(ctx, options, saved, () => `Disabled user ${saved.user_id} (${saved.login_id}).\n`);
  });
  return examples(command, 'onreco users disable 12');
}

export function usersCommand(ctx: CliContext): Command {
  return new Command('users')
    .description('the users: list, show, create, update, disable')
    .addCommand(listCommand(ctx))
    .addCommand(showCommand(ctx))
    .addCommand(createCommand(ctx))
    .addCommand(updateCommand(ctx))
    .addCommand(disableCommand(ctx));
}

export function usergroupsCommand(ctx: CliContext): Command {
  const list = withJson(new Command('list').description('the user groups you may choose (for --usergroup)')).action(async (options) => {
    const groups = await (await clientOf(ctx)).call(listUsergroups, undefined);
    print(ctx, options, groups, () =>
      tableText(groups, [
        { header: 'ID', value: (group) => group.usergroup_id, align: 'right' },
        { header: 'NAME', value: (group) => group.usergroup_name },
      ]),
    );
  });
  return new Command('usergroups').description('the user groups').addCommand(examples(list, 'onreco usergroups list', 'onreco usergroups list --json'));
}
