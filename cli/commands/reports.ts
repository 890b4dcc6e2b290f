// onreco reports run | history | settings: a store's reports through the API. `run` creates a
// sequential report (POST /v1/store_report with regular_report 0), waits for the worker to make it
// (its history row goes from pending to done) with a progress display, and downloads the file.
import { writeFile } from 'node:fs/promises';
import { Command, Option } from 'commander';
import { downloadReport, listRegularReports, listReportHistory, saveReport } from '../../app/domain/api/reports';
import { listStoreSensors } from '../../app/domain/api/sensors';
import { OUTPUT_FORMAT, REPORT_TYPE } from '../../app/domain/report-form';
import type { ApiClient, WireAnswer, WireInput } from '../client';
import { CliError, UsageError } from '../errors';
import { print, stampText, tableText, withProgress } from '../output';
import { type CliContext, clientOf, compactDay, examples, positiveInteger, withJson } from './common';

const TYPE_TEXT: Record<number, string> = { [REPORT_TYPE.month]: 'month', [REPORT_TYPE.week]: 'week', [REPORT_TYPE.day]: 'day', [REPORT_TYPE.free]: 'free' };
const FORMAT_TEXT: Record<number, string> = { [OUTPUT_FORMAT.pdf]: 'pdf', [OUTPUT_FORMAT.csv]: 'csv' };
const POLL_MS = 1000;
const WAIT_MS = 10 * 60_000;

function monthOf(value: string): { year: number; month: number } {
  const match = /^(\d{4})-?(\d{2})$/.exec(value);
  const month = match ? Number(match[2]) : 0;
  if (!match || month < 1 || month > 12) throw new UsageError(`--month must be like 2026-10, not "${value}"`);
  return { year: Number(match[1]), month };
}

const pad = (value: number) => String(value).padStart(2, '0');
const collectIds = (value: string, previous: number[] = []) => [...previous, ...value.split(',').map((id) => positiveInteger('--sensors')(id.trim()))];

/** The first and last day (YYYYMMDD) of the report's period; the server derives the same from the first. */
function periodOf(type: string, options: { month?: string; date?: string; to?: string }): { first: string; last: string } {
  if (type === 'month') {
    if (!options.month) throw new UsageError('--type month needs --month, e.g. --month 2026-10');
    const { year, month } = monthOf(options.month);
    const lastDay = new Date(Date.UTC(year, month, 0)).getUTCDate();
    return { first: `${year}${pad(month)}01`, last: `${year}${pad(month)}${pad(lastDay)}` };
  }
  if (!options.date) throw new UsageError(`--type ${type} needs --date (the ${type === 'week' ? 'first day of the week' : 'day'}${type === 'free' ? ', and --to' : ''})`);
  const first = options.date;
  const add = (days: number) => {
    const at = new Date(Date.UTC(Number(first.slice(0, 4)), Number(first.slice(4, 6)) - 1, Number(first.slice(6, 8)) + days));
    return `${at.getUTCFullYear()}${pad(at.getUTCMonth() + 1)}${pad(at.getUTCDate())}`;
  };
  if (type === 'week') return { first, last: add(6) };
  if (type === 'day') return { first, last: first };
  if (!options.to) throw new UsageError('--type free needs --to');
  return { first, last: options.to };
}

type HistoryItem = WireAnswer<typeof listReportHistory>['histories'][number];

async function waitForReport(ctx: CliContext, client: ApiClient, storeId: string, historyNo: number): Promise<HistoryItem> {
  return withProgress(ctx, `Making report ${historyNo}`, async (report) => {
    const started = Date.now();
    for (;;) {
      const page = await client.call(listReportHistory, { store_id: storeId, page_no: 1 });
      const item = page.histories.find((history) => history.history_no === historyNo);
      if (!item) throw new CliError(`report ${historyNo} is not in the history of store ${storeId}`);
      report(item.state === 'pending' ? '作成中' : item.state);
      if (item.state === 'done') return item;
      if (item.state === 'failed') throw new CliError(`report ${historyNo} failed on the server; see \`onreco reports history ${storeId}\``);
      if (Date.now() - started > WAIT_MS) throw new CliError(`report ${historyNo} is still being made after ${WAIT_MS / 60_000} minutes (is the worker running?); fetch it later from \`onreco reports history ${storeId}\``);
      await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    }
  });
}

function runCommand(ctx: CliContext): Command {
  const command = withJson(
    new Command('run')
      .description('make a report now, wait for it and download the file')
      .argument('<store_id>')
      .addOption(new Option('--type <type>', 'the period').choices(['month', 'week', 'day', 'free']).default('month'))
      .option('--month <yyyy-mm>', 'the month of a month report')
      .option('--date <date>', 'the day of a day report, the first day of a week or free report', compactDay('--date'))
      .option('--to <date>', 'the last day of a free report', compactDay('--to'))
      .addOption(new Option('--format <format>', 'file format').choices(['pdf', 'csv']).default('pdf'))
      .option('--sensors <ids>', 'sensor ids, comma separated (repeatable); default every sensor shown', collectIds)
      .option('--interval <minutes>', 'one reading every so many minutes (10-step)', positiveInteger('--interval'), 60)
      .option('--name <file name>', 'the report\'s file name (without extension)')
      .option('--no-appendix', 'a PDF without its appendix of the raw values (付録)')
      .option('--out <file>', 'where to save it (default the server\'s file name in the current folder); - for stdout'),
  ).action(async (storeId: string, options) => {
    const period = periodOf(options.type, options);
    const client = await clientOf(ctx);
    const sensors: number[] = options.sensors ?? (await client.call(listStoreSensors, { store_id: storeId })).sensors.map((sensor) => sensor.equipment_id);
    if (sensors.length === 0) throw new CliError(`store ${storeId} has no sensors to report on`);
    const input: WireInput<typeof saveReport> = {
      store_id: storeId,
      setting_no: null,
      file_name: options.name ?? `${storeId}_${options.type}_${period.first}`,
      report_type: REPORT_TYPE[options.type as keyof typeof REPORT_TYPE],
      regular_report: 0,
      data_interval: options.interval,
      manual_data_interval: [],
      start_time: `${period.first}000000`,
      end_time: `${period.last}235000`,
      output_format: OUTPUT_FORMAT[options.format as 'pdf' | 'csv'],
      mail_flg: 0,
      equipment_ids: sensors,
      mail_addresses: [],
      appendix: options.appendix ? 1 : 0,
    };
    const created = await client.call(saveReport, input);
    if (created.history_no === null) throw new CliError('the server did not start a report');
    const item = await waitForReport(ctx, client, storeId, created.history_no);
    const file = await client.download(downloadReport, { history_no: created.history_no }, `${item.file_name}.${FORMAT_TEXT[item.output_format] ?? 'bin'}`);
    const out: string = options.out ?? file.fileName;
    if (out === '-') {
      // The file is the output: no summary after it (--json has nothing to add to the bytes).
      ctx.stdoutBytes(file.body);
      return;
    }
    try {
      await writeFile(out, file.body);
    } catch (error) {
      throw new CliError(`cannot write ${out}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
    }
    const result = { ...item, saved_to: out, bytes: file.body.length };
    print(ctx, options, result, () => `Saved report ${item.history_no} to ${out} (${file.body.length} bytes).\n`);
  });
  return examples(command, 'onreco reports run S0001 --type month --month 2026-10', 'onreco reports run S0001 --type day --date 2026-10-05 --format csv --sensors 12,13 --out day.csv');
}

function historyCommand(ctx: CliContext): Command {
  const command = withJson(
    new Command('history')
      .description('the store\'s reports made this month (or since a day), newest first')
      .argument('<store_id>')
      .option('--since <date>', 'made on or after this day', compactDay('--since'))
      .option('--page <n>', 'page of 10', positiveInteger('--page'), 1),
  ).action(async (storeId: string, options) => {
    const answer = await (await clientOf(ctx)).call(listReportHistory, { store_id: storeId, since: options.since ? `${options.since}000000` : undefined, page_no: options.page });
    print(ctx, options, answer, () =>
      tableText(
        answer.histories,
        [
          { header: 'NO', value: (history) => history.history_no, align: 'right' },
          { header: 'MADE', value: (history) => stampText(history.create_datetime) },
          { header: 'FILE', value: (history) => history.file_name },
          { header: 'TYPE', value: (history) => TYPE_TEXT[history.report_type] ?? history.report_type },
          { header: 'PERIOD', value: (history) => `${stampText(history.start_time)?.slice(0, 10)} – ${stampText(history.end_time)?.slice(0, 10)}` },
          { header: 'FORMAT', value: (history) => FORMAT_TEXT[history.output_format] ?? history.output_format },
          { header: 'STATE', value: (history) => (history.state === 'pending' ? '作成中' : history.state) },
        ],
        'no reports in this period',
      ) + `page ${options.page}: ${answer.histories.length} of ${answer.all_count} reports\n`,
    );
  });
  return examples(command, 'onreco reports history S0001', 'onreco reports history S0001 --since 2026-10-01 --json');
}

function settingsCommand(ctx: CliContext): Command {
  const command = withJson(new Command('settings').description('the store\'s regular report settings').argument('<store_id>')).action(async (storeId: string, options) => {
    const settings = await (await clientOf(ctx)).call(listRegularReports, { store_id: storeId });
    print(ctx, options, settings, () =>
      tableText(
        settings,
        [
          { header: 'NO', value: (setting) => setting.setting_no, align: 'right' },
          { header: 'NAME', value: (setting) => setting.setting_name },
          { header: 'FILE', value: (setting) => setting.file_name },
          { header: 'TYPE', value: (setting) => TYPE_TEXT[setting.report_type] ?? setting.report_type },
          { header: 'FORMAT', value: (setting) => FORMAT_TEXT[setting.output_format] ?? setting.output_format },
          { header: 'SENSORS', value: (setting) => setting.equipment_ids.length, align: 'right' },
          { header: 'MAIL', value: (setting) => (setting.mail_flg === 1 ? setting.mail_addresses.join(', ') : null) },
        ],
        `store ${storeId} has no regular reports`,
      ),
    );
  });
  return examples(command, 'onreco reports settings S0001', 'onreco reports settings S0001 --json');
}

export function reportsCommand(ctx: CliContext): Command {
  return new Command('reports').description('reports: run one now, the history, the regular settings').addCommand(runCommand(ctx)).addCommand(historyCommand(ctx)).addCommand(settingsCommand(ctx));
}
