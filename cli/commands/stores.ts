// onreco stores list | show | create | update | remove: the store master through the API.
import { Command, Option } from 'commander';
import { getStore, importStores, listStores, saveStore, removeGateway } from '../../app/domain/api/stores';
import { STORE_STATUS_CLI_NAMES, type StoreStatusCliName, storeStatusCliName } from '../../app/domain/store-status';
import { workingStateCliName } from '../../app/domain/working-state';
import type { ApiClient, WireAnswer, WireInput } from '../client';
import { UsageError } from '../errors';
import { SENSOR_COLUMNS, STORE_COLUMNS, storesOfFile } from '../import-file';
import { print, recordText, tableText, withProgress } from '../output';
import { type CliContext, clientOf, compactDay, examples, positiveInteger, readCsvFile, readJsonFile, withJson } from './common';
import { runImport } from './import-run';

type StoreRow = WireAnswer<typeof listStores>['stores'][number];
type StoreFilters = Omit<WireInput<typeof listStores>, 'page_no' | 'page_count'>;

const API_PAGE = 100; // the list call's largest page
const PARALLEL_PAGES = 4;

/**
 * Every store the user may see with the filters, fetched a page of 100 at a time, four pages at
 * once after the first (which tells how many there are).
 */
export async function allStores(client: ApiClient, filters: StoreFilters, onPage: (done: number, all: number) => void = () => {}): Promise<WireAnswer<typeof listStores>> {
  const first = await client.call(listStores, { ...filters, page_no: 1, page_count: API_PAGE });
  const pageCount = Math.ceil(first.all_count / API_PAGE);
  const pages: StoreRow[][] = [first.stores];
  let next = 2;
  const worker = async () => {
    while (next <= pageCount) {
      const pageNo = next++;
      pages[pageNo - 1] = (await client.call(listStores, { ...filters, page_no: pageNo, page_count: API_PAGE })).stores;
      onPage(pages.filter(Boolean).length * API_PAGE, first.all_count);
    }
  };
  await Promise.all(Array.from({ length: PARALLEL_PAGES }, worker));
  return { all_count: first.all_count, alert_count: first.alert_count, stores: pages.flat() };
}

function listCommand(ctx: CliContext): Command {
  const command = withJson(
    new Command('list')
      .description('the stores you may see (every page), alarms first, as the dashboard lists them')
      .option('--region <id>', 'region id', positiveInteger('--region'))
      .option('--prefecture <id>', 'prefecture id', positiveInteger('--prefecture'))
      .option('--company <id>', 'company id')
      .option('--storegroup <id>', 'store group id')
      .addOption(new Option('--status <status>', 'store status').choices(Object.keys(STORE_STATUS_CLI_NAMES)))
      .option('--name <text>', 'part of the store name')
      .option('--number <text>', 'part of the store number')
      .option('--page <n>', 'only this page (20 a page unless --page-size)', positiveInteger('--page'))
      .option('--page-size <n>', 'stores a page with --page (at most 100)', positiveInteger('--page-size')),
  ).action(async (options) => {
    const client = await clientOf(ctx);
    const filters: StoreFilters = {
      region_id: options.region,
      prefecture_id: options.prefecture,
      company_id: options.company,
      storegroup_id: options.storegroup,
      store_status: options.status === undefined ? undefined : STORE_STATUS_CLI_NAMES[options.status as StoreStatusCliName],
      store_name: options.name,
      store_no: options.number,
    };
    const answer = options.page
      ? await client.call(listStores, { ...filters, page_no: options.page, page_count: options.pageSize ?? 20 })
      : await withProgress(ctx, 'Fetching stores', (report) => allStores(client, filters, (done, all) => report(`${Math.min(done, all)}/${all}`)));
    print(ctx, options, answer, () =>
      tableText(answer.stores, [
        { header: 'STORE ID', value: (store) => store.store_id },
        { header: 'NO', value: (store) => store.store_no },
        { header: 'NAME', value: (store) => store.store_name },
        { header: 'STATUS', value: (store) => storeStatusCliName(store.store_status) },
        { header: 'WORKING', value: (store) => workingStateCliName(store.working_state) },
        { header: 'ALERTS', value: (store) => store.alert_messages.join(', ') },
      ]) + `${answer.stores.length} of ${answer.all_count} stores, ${answer.alert_count} in alarm\n`,
    );
  });
  return examples(command, 'onreco stores list --status alert', 'onreco stores list --company C001 --json > stores.json', 'onreco stores list --name 新宿 --page 1');
}

function showCommand(ctx: CliContext): Command {
  const command = withJson(new Command('show').description('one store\'s info').argument('<store_id>')).action(async (storeId: string, options) => {
    const store = await (await clientOf(ctx)).call(getStore, { store_id: storeId });
    print(ctx, options, store, () =>
      recordText([
        ['store id', store.store_id],
        ['store no', store.store_no],
        ['name', store.store_name],
        ['company', `${store.company_name} (${store.company_id})`],
        ['store group', `${store.storegroup_name} (${store.storegroup_id})`],
        ['prefecture', store.prefecture_name],
        ['address', store.address],
        ['tel', store.tel_no],
        ['opening', store.opening_date],
        ['closing', store.closing_date],
        ['user groups', store.usergroup.map((group) => `${group.usergroup_name} (${group.usergroup_id})`).join(', ')],
        ['gateway', store.gateway_info],
        ['working state', workingStateCliName(store.working_state)],
        ['PIN', store.pin_code ? `${store.pin_code} until ${store.effective_time}` : null],
      ]),
    );
  });
  return examples(command, 'onreco stores show S0001', 'onreco stores show S0001 --json');
}

type StoreSave = WireInput<typeof saveStore>;

/** The store entity from --file, with the flags given on top of it. */
async function storeEntityOf(ctx: CliContext, options: Record<string, unknown>, base: Partial<StoreSave> = {}): Promise<StoreSave> {
  const file = typeof options.file === 'string' ? ((await readJsonFile(ctx, options.file)) as Partial<StoreSave>) : {};
  const flags: Partial<StoreSave> = {
    store_id: options.storeId as string | undefined,
    store_no: options.storeNo as string | undefined,
    store_name: options.name as string | undefined,
    company_id: options.company as string | undefined,
    storegroup_id: options.storegroup as string | undefined,
    prefecture_id: options.prefecture as number | undefined,
    address: options.address as string | undefined,
    tel_no: options.tel as string | undefined,
    opening_date: options.opening as string | undefined,
    closing_date: options.closing as string | undefined,
    usergroup: options.usergroup as number[] | undefined,
    gateway_info: options.gateway as string | undefined,
  };
  const given = Object.fromEntries(Object.entries(flags).filter(([, value]) => value !== undefined));
  return { ...base, ...file, ...given } as StoreSave;
}

const collectGroups = (value: string, previous: number[] = []) => [...previous, ...value.split(',').map((id) => positiveInteger('--usergroup')(id.trim()))];

function withStoreFields(command: Command): Command {
  return command
    .option('--file <store.json>', 'the store entity as JSON (001 §3 fields; - for stdin); flags override it')
    .option('--store-no <digits>', 'store number')
    .option('--name <name>', 'store name')
    .option('--company <id>', 'company id')
    .option('--storegroup <id>', 'store group id')
    .option('--prefecture <id>', 'prefecture id (1-47)', positiveInteger('--prefecture'))
    .option('--address <text>', 'address')
    .option('--tel <digits>', 'phone number, digits only')
    .option('--opening <date>', 'opening date', compactDay('--opening'))
    .option('--closing <date>', 'closing date', compactDay('--closing'))
    .option('--usergroup <ids>', 'user group ids, comma separated (repeatable)', collectGroups)
    .option('--gateway <info>', 'gateway info (required on create)');
}

function createCommand(ctx: CliContext): Command {
  const command = withJson(withStoreFields(new Command('create').description('create a store').argument('[store_id]'))).action(async (storeId: string | undefined, options) => {
    const entity = await storeEntityOf(ctx, { ...options, storeId });
    if (!entity.store_id) throw new UsageError('which store id? give it as the argument or in --file');
    const client = await clientOf(ctx);
    const existing = await client.call(getStore, { store_id: entity.store_id }).catch(() => null);
    if (existing) throw new UsageError(`store ${entity.store_id} exists already: use \`onreco stores update ${entity.store_id}\``);
    const saved = await client.call(saveStore, entity);
    print(ctx, options, saved, () => `Created store ${saved.store_id}.\n`);
  });
  return examples(
    command,
    'onreco stores create S0100 --store-no 100 --name "新宿西口店" --company C001 --storegroup G01 --prefecture 13 --address "東京都新宿区西新宿1-1-1" --opening 2026-12-01 --usergroup 3 --gateway GW-0100',
    'onreco stores create --file store.json',
  );
}

function updateCommand(ctx: CliContext): Command {
  const command = withJson(withStoreFields(new Command('update').description('change a store: the flags given, the rest as it is').argument('<store_id>'))).action(async (storeId: string, options) => {
    const client = await clientOf(ctx);
    const current = await client.call(getStore, { store_id: storeId });
    const base: StoreSave = {
      store_id: current.store_id,
      store_no: current.store_no,
      store_name: current.store_name,
      company_id: current.company_id,
      storegroup_id: current.storegroup_id,
      prefecture_id: current.prefecture_id,
      address: current.address,
      tel_no: current.tel_no,
      opening_date: current.opening_date,
      closing_date: current.closing_date,
      usergroup: current.usergroup.map((group) => group.usergroup_id),
      gateway_info: current.gateway_info,
    };
    const entity = await storeEntityOf(ctx, options, base);
    if (entity.store_id !== storeId) throw new UsageError(`--file names store ${entity.store_id}, not ${storeId}`);
    const saved = await client.call(saveStore, entity);
    print(ctx, options, saved, () => `Updated store ${saved.store_id}.\n`);
  });
  return examples(command, 'onreco stores update S0100 --tel 0312345678', 'onreco stores update S0100 --file store.json');
}

function removeCommand(ctx: CliContext): Command {
  const command = withJson(new Command('remove').description('remove (撤去) an operating store: its gateway stops, its history stays').argument('<store_id>')).action(async (storeId: string, options) => {
    const removed = await (await clientOf(ctx)).call(removeGateway, { store_id: storeId, gateway_info: '' });
    print(ctx, options, removed, () => `Removed store ${removed.store_id} (gateway ${removed.gateway_info}).\n`);
  });
  return examples(command, 'onreco stores remove S0100');
}

function importCommand(ctx: CliContext): Command {
  const command = withJson(
    new Command('import')
      .description('create stores with their user groups and sensors from a CSV file, all or nothing; stores and serials that exist are left as they are')
      .argument('<file.csv>', 'CSV in UTF-8 or Shift_JIS (Excel), one row per sensor (- for stdin)')
      .option('--dry-run', 'check the whole file and tell what would be created, writing nothing'),
  ).action(async (file: string, options) => {
    const { stores, lines } = await storesOfFile(await readCsvFile(ctx, file), file);
    await runImport(ctx, options, file, importStores, { dry_run: options.dryRun === true, stores } as WireInput<typeof importStores>, lines);
  });
  command.addHelpText('after', `\nColumns (docs/cli.md): ${STORE_COLUMNS.join(', ')}; per sensor ${SENSOR_COLUMNS.join(', ')}.\nA store's columns are read from its first row; usergroups are names, comma separated.`);
  return examples(command, 'onreco stores import kanto.csv --dry-run', 'onreco stores import kanto.csv --json > imported.json');
}

export function storesCommand(ctx: CliContext): Command {
  return new Command('stores')
    .description('the stores: list, show, create, update, remove, import')
    .addCommand(listCommand(ctx))
    .addCommand(showCommand(ctx))
    .addCommand(createCommand(ctx))
    .addCommand(updateCommand(ctx))
    .addCommand(removeCommand(ctx))
    .addCommand(importCommand(ctx));
}
